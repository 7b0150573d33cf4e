import { FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

/**
 * Saved exclusions apply wherever a reader meets books (issue 21). The lists come from the app
 * itself (an onRoute hook while it is built): every GET route whose answer holds a list of book
 * cards. A route added later is found too, and fails here until it applies the exclusions (or is
 * named below with the reason it must not).
 */
const NOT_FILTERED: Record<string, string> = {
  '/api/my/books': "the signed-in author's own books",
  '/api/my/library': 'shelves the reader filled themselves',
  '/api/authors/books/:bookId/chapters': "the author's own chapters of their book",
  '/api/books/:id/deleted-chapters': "the author's own deleted chapters",
  '/api/books/:id/chapters': 'the chapters of one book, opened by id',
  '/api/books/:id/announcements': 'the announcements of one book, opened by id',
};

/** What a list route's path parameters and query need to list the muted book. */
const PARAMS: Record<string, (s: Setup) => string> = {
  id: (s) => String(s.muted.id),
  genre: () => GENRE,
};
const QUERIES: Record<string, (s: Setup) => string> = {
  '/api/books/search': (s) => `q=${s.word}`,
};

const GENRE_ID = 3;
const TAG = `everylisttag${process.pid}`;
const NOTHING = { exclude_tags: [], exclude_warnings: [], exclude_ratings: [], muted_authors: [] };
/** Each kind of saved exclusion alone: a list must apply every one, not just one of them. */
const KINDS: Record<string, (s: Setup) => Record<string, string[]>> = {
  'an excluded tag': () => ({ exclude_tags: [TAG.toUpperCase()] }),
  'an excluded warning': () => ({ exclude_warnings: ['abuse'] }),
  'an excluded rating': () => ({ exclude_ratings: ['explicit'] }),
  'a muted author': (s) => ({ muted_authors: [s.muted.username] }),
};
let GENRE = '';

interface Setup {
  reader: TestUser;
  muted: TestUser;
  book: number;
  word: string;
}

const routes: RouteOptions[] = [];
let t: TestApp;
let s: Setup;

beforeAll(async () => {
  t = await createTestApp({}, { onRoute: (route) => void routes.push(route) });
  GENRE = (await as(t.app).get('/api/genres'))
    .json()
    .genres.find((g: { id: number }) => g.id === GENRE_ID).name;
  const reader = await signup(t.app);
  const muted = await signup(t.app);
  const word = `everylist${process.pid}`;
  // Reachable by every list: published, in a genre, with a chapter read and followed.
  const book = await createBook(t.app, muted, `The ${word}`, { published: true });
  await as(t.app, muted).post(`/api/books/${book.id}/genres`, { genre_id: GENRE_ID });
  // Something for each kind of exclusion to take it out by.
  await as(t.app, muted).put(`/api/books/${book.id}`, {
    tags: [TAG],
    warnings: ['abuse'],
    rating: 'explicit',
  });
  const chapter = await createChapter(
    t.app,
    muted,
    book.id,
    { title: 'One', content: `<p>${word}</p>` },
    { published: true },
  );
  await as(t.app, reader).post(`/api/books/${book.id}/chapters/${chapter.id}/history`);
  await as(t.app, reader).post(`/api/books/${book.id}/follow`);
  await t.ctx.searchIndexer.flush();
  s = { reader, muted, book: book.id, word };
}, 60_000);
afterAll(() => t.close());

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/**
 * Anything that may be a book: an object with a title and an id (`id` or `book_id`). Broad on
 * purpose: a list of other things with titles (chapters) is named in NOT_FILTERED with its
 * reason rather than slipping past a narrower test.
 */
const isCard = (node: JsonSchema) =>
  node.properties !== undefined &&
  'title' in node.properties &&
  ('id' in node.properties || 'book_id' in node.properties);

/** Whether the JSON Schema of an answer holds a list (an array) of book cards anywhere. */
function holdsBookList(root: JsonSchema): boolean {
  const defs = root.$defs ?? {};
  const seen = new Set<JsonSchema>();
  const resolve = (node: JsonSchema): [JsonSchema, string | undefined] => {
    const name = node.$ref?.split('/').pop();
    return name && defs[name] ? [defs[name]!, name] : [node, undefined];
  };
  const containsCard = (raw: JsonSchema): boolean => {
    const [node] = resolve(raw);
    if (seen.has(node)) return false;
    seen.add(node);
    if (isCard(node)) return true;
    const children = [
      ...Object.values(node.properties ?? {}),
      ...(node.items ? [node.items] : []),
      ...(node.anyOf ?? []),
      ...(node.oneOf ?? []),
      ...(node.allOf ?? []),
    ];
    return children.some(containsCard);
  };
  const walk = (raw: JsonSchema, visited = new Set<JsonSchema>()): boolean => {
    const [node] = resolve(raw);
    if (visited.has(node)) return false;
    visited.add(node);
    if (node.type === 'array' && node.items) {
      seen.clear();
      if (containsCard(node.items)) return true;
    }
    return [
      ...Object.values(node.properties ?? {}),
      ...(node.items ? [node.items] : []),
      ...(node.anyOf ?? []),
      ...(node.oneOf ?? []),
      ...(node.allOf ?? []),
    ].some((child) => walk(child, visited));
  };
  return walk(root);
}

function bookLists(): string[] {
  return routes
    .filter((r) => [r.method].flat().includes('GET'))
    .filter((r) => {
      const ok = (r.schema?.response as Record<number, unknown> | undefined)?.[200];
      if (!ok) return false;
      return holdsBookList(z.toJSONSchema(ok as z.ZodType, { io: 'output' }) as JsonSchema);
    })
    .map((r) => r.url);
}

/** Every book id in an answer: cards' `id`, popular entries' `book_id`. */
function bookIdsIn(value: unknown): number[] {
  if (Array.isArray(value)) return value.flatMap(bookIdsIn);
  if (value === null || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  const own =
    typeof record.author_id === 'number' && typeof record.id === 'number'
      ? [record.id]
      : typeof record.book_id === 'number'
        ? [record.book_id]
        : [];
  return [...own, ...Object.values(record).flatMap(bookIdsIn)];
}

describe('saved exclusions on every list of books', () => {
  it('finds the lists in the route table', () => {
    const lists = bookLists();
    // The ones known when this was written: the enumeration must at least see these.
    for (const url of [
      '/api/books',
      '/api/books/search',
      '/api/books/genres/:genre',
      '/api/recent/books',
      '/api/popular/books',
      '/api/authors/:id/books',
      '/api/my/followed-books',
      '/api/my/books',
    ])
      expect(lists).toContain(url);
  });

  it.each(Object.keys(KINDS))(
    'takes the book out of each for %s, with the hidden count, and filters=off brings it back',
    async (kind) => {
      const saved = await as(t.app, s.reader).put('/api/my/filters', {
        ...NOTHING,
        ...KINDS[kind]!(s),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const checked: string[] = [];
      for (const url of bookLists()) {
        if (NOT_FILTERED[url]) continue;
        const path = url.replace(/:(\w+)/g, (_, name: string) => {
          const value = PARAMS[name];
          if (!value) throw new Error(`${url}: no sample value for :${name}; add one to PARAMS`);
          return encodeURIComponent(value(s));
        });
        const query = QUERIES[url]?.(s) ?? '';
        const sep = query ? '&' : '';
        const off = await as(t.app, s.reader).get(`${path}?${query}${sep}filters=off`);
        expect(off.statusCode, `${url}: ${off.body}`).toBe(200);
        expect(bookIdsIn(off.json()), `${url} lists the book at all`).toContain(s.book);
        const filtered = await as(t.app, s.reader).get(`${path}?${query}`);
        expect(filtered.statusCode, `${url}: ${filtered.body}`).toBe(200);
        expect(bookIdsIn(filtered.json()), `${url} leaves the book out for ${kind}`).not.toContain(
          s.book,
        );
        expect(filtered.headers[FILTERED_HIDDEN_HEADER], `${url} says how many it hid`).toBe('1');
        expect(filtered.headers['cache-control'] ?? 'private', url).not.toContain('public');
        // A visitor still sees it: nobody else's answer is filtered, from the cache or not.
        const visitor = await as(t.app).get(`${path}?${query}`);
        // Lists that are a signed-in reader's own refuse a visitor; every other one answers.
        expect([200, 401], url).toContain(visitor.statusCode);
        if (visitor.statusCode === 200) expect(bookIdsIn(visitor.json()), url).toContain(s.book);
        checked.push(url);
      }
      expect(checked.length).toBeGreaterThanOrEqual(7);
    },
  );
});
