import crypto from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { testEngine } from '../helpers/database.ts';
import {
  mutationsOf,
  seededRandom,
  unsafeMarkup,
  withinBudget,
  type FuzzRequest,
  type Known,
  type OpenApi,
} from './helpers/fuzz.ts';

/**
 * Every operation of the OpenAPI document, fed hostile input generated from its own schemas.
 * Nothing may answer 5xx; refusals are clear 4xx {detail, code}; what is accepted reads back as
 * sent (text fields) or as the write answered it (sanitized HTML). FUZZ_SEED repeats a run,
 * FUZZ_REQUESTS sets the budget per engine (the CI default keeps the run short), FUZZ_NAUGHTY the
 * naughty strings tried per field.
 */
const SEED = Number(process.env.FUZZ_SEED ?? crypto.randomInt(2 ** 31));
const BUDGET = Number(process.env.FUZZ_REQUESTS ?? 1_200);
// FUZZ_NAUGHTY: naughty strings per string field (the whole list: 485).
const PER_FIELD = { naughty: Number(process.env.FUZZ_NAUGHTY ?? 6), unicode: 6, wrongTypes: 4 };

let t: TestApp;
let spec: OpenApi;
let owner: TestUser;
let other: TestUser;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '1000' });
  spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  owner = await signup(t.app);
  other = await signup(t.app);
});
afterAll(() => t.close());

interface Fixture {
  bookId: number;
  chapterId: number;
  noteId?: number;
}

/** Fresh things for one operation to work on, so a delete or an edit never starves the next one. */
async function fixture(): Promise<Fixture> {
  const book = await createBook(t.app, owner, `Fuzz ${crypto.randomBytes(4).toString('hex')}`, {
    published: true,
  });
  const chapter = await createChapter(
    t.app,
    owner,
    book.id,
    { title: 'Target', content: '<p>target</p>' },
    { published: true },
  );
  const note = await as(t.app, owner).post('/api/my/notes', { book_id: book.id, body: 'a note' });
  return {
    bookId: book.id,
    chapterId: chapter.id,
    ...(note.statusCode === 201 && { noteId: note.json().id }),
  };
}

let uniqueName = 0;
function knownFor(f: Fixture): Known {
  return {
    pathParam(path, name) {
      if (name === 'bookId') return String(f.bookId);
      if (name === 'chapterId') return String(f.chapterId);
      if (name === 'genre') return 'Fantasy';
      if (name === 'username') return owner.username;
      if (name === 'token') return 'A'.repeat(43);
      if (path.startsWith('/api/chapters/')) return String(f.chapterId);
      if (path.startsWith('/api/authors/')) return String(owner.id);
      if (path.startsWith('/api/my/notes/')) return String(f.noteId ?? 1);
      return String(f.bookId);
    },
    integer(name) {
      return (
        {
          book_id: f.bookId,
          chapter_id: f.chapterId,
          author_id: other.id,
          genre_id: 1,
          id: f.chapterId,
          chapter_order: 1,
          limit: 10,
          offset: 0,
        } as Record<string, number>
      )[name];
    },
    string(name) {
      if (name === 'username') return `fz${process.pid % 1000}_${++uniqueName}`;
      if (name === 'password') return 'correct horse battery';
      if (name === 'title') return 'Fuzzed Title';
      if (name === 'content' || name === 'biography') return '<p>fuzzed</p>';
      if (name === 'body') return 'a fuzzed note';
      if (name === 'q') return 'fuzz';
      return undefined;
    },
  };
}

/** Text fields that must read back exactly as sent (or trimmed, where the contract trims). */
/** What a creation answered: the new thing's id (an account for a signup). */
interface Written {
  id: number;
  account: { id: number };
}

interface Readback {
  url(f: Fixture, written: Written): string;
  text: string[];
  /** Sanitized fields: they must read back as the write answered them, and hold no script. */
  html?: string[];
  /** Creations may add " (n)" to keep titles unique, or a default for a blank title. */
  creates?: boolean;
}

const READBACK: Record<string, Readback> = {
  'POST /api/books': { url: (_f, w) => `/api/books/${w.id}`, text: ['title'], creates: true },
  'PUT /api/books/{id}': { url: (f) => `/api/books/${f.bookId}`, text: ['title', 'summary'] },
  'POST /api/books/{id}/chapters': {
    url: (_f, w) => `/api/chapters/${w.id}`,
    text: ['title'],
    html: ['content'],
    creates: true,
  },
  'PUT /api/books/{bookId}/chapters/{chapterId}': {
    url: (f) => `/api/chapters/${f.chapterId}`,
    text: ['title'],
    html: ['content'],
  },
  'PUT /api/authors/{id}': {
    url: () => `/api/authors/${owner.id}`,
    text: ['username', 'first_name', 'last_name'],
    html: ['biography'],
  },
  'POST /api/authors': { url: (_f, w) => `/api/authors/${w.account.id}`, text: ['username'] },
  'POST /api/my/notes': { url: (_f, w) => `/api/my/notes/${w.id}`, text: ['body', 'quote'] },
  'PUT /api/my/notes/{id}': { url: (f) => `/api/my/notes/${f.noteId}`, text: ['body'] },
};

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Exactly as sent, or trimmed (the contract trims titles and notes); blank may mean "none" or a default. */
function readsBackAsSent(stored: unknown, sent: unknown, creates: boolean): boolean {
  if (typeof sent !== 'string') return true;
  if (stored === sent || stored === sent.trim()) return true;
  if (sent.trim() === '') return stored === null || stored === '' || creates;
  return (
    creates &&
    typeof stored === 'string' &&
    new RegExp(`^${escapeRegExp(sent.trim())} \\(\\d+\\)$`).test(stored)
  );
}

async function send(request: FuzzRequest): Promise<LightMyRequestResponse> {
  const raw = typeof request.payload === 'string';
  return t.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: {
      authorization: `Bearer ${owner.token}`,
      ...((raw || request.contentType) && {
        'content-type': request.contentType ?? 'application/json',
      }),
    },
    ...(request.payload !== undefined &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' && { payload: request.payload as string }),
  });
}

interface Problem {
  operation: string;
  label: string;
  status: number;
  detail: string;
}

describe(`fuzzing every operation of the OpenAPI document (${testEngine()})`, () => {
  it('never answers 5xx, refuses clearly, and stores what it accepts exactly', async () => {
    const random = seededRandom(SEED);
    const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        path,
        method: method.toUpperCase(),
        operation,
      })),
    );
    // The session is the fuzzer's own: log out last.
    operations.sort(
      (a, b) =>
        Number(a.path === '/token' && a.method === 'DELETE') -
        Number(b.path === '/token' && b.method === 'DELETE'),
    );
    // Operations without parameters or body have little to vary; the budget goes to the others.
    const withInput = operations.filter(
      ({ operation }) => operation.requestBody || operation.parameters?.length,
    ).length;
    const perOperation = Math.max(10, Math.floor(BUDGET / Math.max(1, withInput)));
    const problems: Problem[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;

    for (const { path, method, operation } of operations) {
      // Uploads take multipart files; tests/reliability/uploads-hostile.test.ts covers them.
      if (operation.requestBody && !operation.requestBody.content['application/json']) continue;
      const f = await fixture();
      const key = `${method} ${path}`;
      const requests = withinBudget(
        mutationsOf(spec, path, method, operation, knownFor(f), random, PER_FIELD),
        perOperation,
        random,
      );
      for (const request of requests) {
        const res = await send(request);
        sent++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        const problem = (detail: string) =>
          problems.push({ operation: key, label: request.label, status: res.statusCode, detail });
        if (res.statusCode >= 500) {
          problem(res.body.slice(0, 200));
          continue;
        }
        if (res.statusCode >= 400) {
          const body = res.json();
          if (typeof body?.detail !== 'string' || typeof body?.code !== 'string')
            problem(`unclear refusal: ${res.body.slice(0, 200)}`);
          continue;
        }
        const readback = READBACK[key];
        if (!readback || typeof request.payload !== 'object' || request.payload === null) continue;
        // A changed path names something else ("1e3" is read as id 1000): there is nothing of the fixture's to read back.
        if (request.category === 'path' || request.category === 'query') continue;
        const written = res.json();
        const read = await t.app.inject({
          method: 'GET',
          url: readback.url(f, written),
          headers: { authorization: `Bearer ${owner.token}` },
        });
        if (read.statusCode !== 200) {
          problem(`read back: ${read.statusCode}`);
          continue;
        }
        const stored = read.json();
        const payload = request.payload as Record<string, unknown>;
        for (const field of readback.text) {
          if (!readsBackAsSent(stored[field], payload[field], readback.creates ?? false)) {
            problem(
              `${field} stored as ${JSON.stringify(stored[field]).slice(0, 80)}, sent ${JSON.stringify(payload[field]).slice(0, 80)}`,
            );
          }
        }
        for (const field of readback.html ?? []) {
          const value = stored[field];
          const unsafe = typeof value === 'string' ? unsafeMarkup(value) : undefined;
          if (unsafe) problem(`${field} holds active markup: ${unsafe.slice(0, 80)}`);
          if (written[field] !== undefined && value !== written[field])
            problem(`${field} reads back differently than written`);
        }
      }
    }

    if (process.env.FUZZ_VERBOSE) {
      console.log(
        `fuzz: ${sent} requests over ${operations.length} operations, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
      );
      const kinds = new Map<string, Problem>();
      for (const p of problems) kinds.set(`${p.operation} ${p.status} ${p.detail.slice(0, 40)}`, p);
      console.log(
        `fuzz problems, one of each kind:\n${JSON.stringify([...kinds.values()], null, 1)}`,
      );
    }
    expect(problems, `seed ${SEED}: ${JSON.stringify(problems.slice(0, 15), null, 1)}`).toEqual([]);
    // The budget was spent on every operation, with refusals and successes both.
    expect(sent).toBeGreaterThan(operations.length * 5);
    expect([...statuses.keys()].some((s) => s >= 200 && s < 300)).toBe(true);
    expect([...statuses.keys()].some((s) => s >= 400 && s < 500)).toBe(true);
  });
});
