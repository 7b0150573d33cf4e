import { Ledger, type StoredChapter } from './ledger.ts';

/** One HTTP answer as the workloads see it: a status, or a network failure (status 0). */
export interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON of any endpoint, like light-my-request's json()
  body: any;
}

/** JSON over fetch, never throwing: a connection that fails answers status 0 (the write is in doubt). */
export async function call(
  base: string,
  method: string,
  url: string,
  { token, body, timeoutMs = 10_000 }: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  try {
    const res = await fetch(base + url, {
      method,
      headers: {
        ...(token && { authorization: `Bearer ${token}` }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 0, body: undefined };
  }
}

const ok = (answer: Answer) => answer.status >= 200 && answer.status < 300;

export interface Writer {
  token: string;
  bookId: number;
}

/** Signs up a user over HTTP and answers its id and token. */
export async function signupOver(
  base: string,
  username: string,
): Promise<{ id: number; token: string; username: string }> {
  const answer = await call(base, 'POST', '/api/authors', {
    body: { username, password: 'correct horse battery' },
  });
  if (answer.status !== 201)
    throw new Error(`signup ${username}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { id: answer.body.account.id, token: answer.body.access_token, username };
}

/** A published book with `chapters` chapters (the first ones published), for a writer to work on. */
export async function setUpBook(
  base: string,
  token: string,
  title: string,
  chapters: number,
  ledger: Ledger,
): Promise<Writer> {
  const book = await call(base, 'POST', '/api/books', { token, body: { title } });
  if (book.status !== 201)
    throw new Error(`create book: ${book.status} ${JSON.stringify(book.body)}`);
  const published = await call(base, 'PUT', `/api/books/${book.body.id}`, {
    token,
    body: { title, summary: '', is_published: true },
  });
  if (published.status !== 200) throw new Error(`publish book: ${published.status}`);
  const writer = { token, bookId: book.body.id as number };
  for (let i = 0; i < chapters; i++) {
    const created = await call(base, 'POST', `/api/books/${writer.bookId}/chapters`, {
      token,
      body: { content: `<p>start ${i}</p>` },
    });
    if (created.status !== 201) throw new Error(`create chapter: ${created.status}`);
    ledger.created(
      created.body.id,
      { content: created.body.content, published: false },
      writer.bookId,
    );
  }
  return writer;
}

/** The book's chapters as the author sees them, with their content: what is stored now. */
export async function storedChapters(
  base: string,
  writer: Writer,
): Promise<Map<number, StoredChapter>> {
  const list = await call(base, 'GET', `/api/authors/books/${writer.bookId}/chapters`, {
    token: writer.token,
  });
  if (list.status !== 200)
    throw new Error(`list chapters: ${list.status} ${JSON.stringify(list.body)}`);
  const stored = new Map<number, StoredChapter>();
  for (const { id } of list.body.chapters as Array<{ id: number }>) {
    const chapter = await call(base, 'GET', `/api/chapters/${id}`, { token: writer.token });
    if (chapter.status !== 200) throw new Error(`read chapter ${id}: ${chapter.status}`);
    stored.set(id, { content: chapter.body.content, published: chapter.body.is_published });
  }
  return stored;
}

export interface WriteStats {
  statuses: Map<number, number>;
  requests: number;
  /** The first answers that were not 2xx, for assertions on their bodies. */
  refusals: Answer[];
}

export const newStats = (): WriteStats => ({ statuses: new Map(), requests: 0, refusals: [] });

/** Counts an answer into `stats`; answers it unchanged. */
export function tally(stats: WriteStats, answer: Answer): Answer {
  stats.requests++;
  stats.statuses.set(answer.status, (stats.statuses.get(answer.status) ?? 0) + 1);
  if (!ok(answer) && stats.refusals.length < 200) stats.refusals.push(answer);
  return answer;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/**
 * One author working on one book, one request at a time: mostly autosaves, some publish toggles,
 * chapters added at a random place and chapters deleted (both renumber the others). Every answer
 * goes into the ledger and into the counts of `stats()`. Runs until `until()` says stop.
 */
export async function writeUntil(
  base: string,
  writer: Writer,
  ledger: Ledger,
  stats: () => WriteStats,
  until: () => boolean,
  { name, pauseMs = 0 }: { name: string; pauseMs?: number },
): Promise<void> {
  const chapters = new Set(
    ledger.chapterIds().filter((id) => ledger.ownedBy(id) === writer.bookId),
  );
  const published = new Map<number, boolean>();
  // Asked at each answer, so a test may count the phases of a scenario apart.
  const count = (answer: Answer) => tally(stats(), answer);
  for (let n = 1; !until(); n++) {
    const roll = Math.random();
    const ids = [...chapters];
    if (roll < 0.1 && ids.length < 12) {
      const created = count(
        await call(base, 'POST', `/api/books/${writer.bookId}/chapters`, {
          token: writer.token,
          body: {
            content: `<p>${name} new ${n}</p>`,
            chapter_order: 1 + Math.floor(Math.random() * (ids.length + 1)),
          },
        }),
      );
      if (created.status === 201) {
        ledger.created(
          created.body.id,
          { content: created.body.content, published: false },
          writer.bookId,
        );
        chapters.add(created.body.id);
      }
    } else if (roll < 0.18 && ids.length > 2) {
      const id = pick(ids);
      const ack = ledger.attempt(id, 'exists', false);
      // Gone from the writer's hands whatever the answer: a delete in doubt is not retried.
      chapters.delete(id);
      if (ok(count(await call(base, 'DELETE', `/api/chapters/${id}`, { token: writer.token }))))
        ack();
    } else if (roll < 0.3) {
      const id = pick(ids);
      const next = !published.get(id);
      const ack = ledger.attempt(id, 'published', next);
      const answer = count(
        await call(base, 'PUT', `/api/books/${writer.bookId}/chapters/${id}`, {
          token: writer.token,
          body: { is_published: next },
        }),
      );
      if (ok(answer)) {
        ack();
        published.set(id, next);
      }
    } else {
      const id = pick(ids);
      const content = `<p>${name} save ${n}</p>`;
      const ack = ledger.attempt(id, 'content', content);
      if (
        ok(
          count(
            await call(base, 'PUT', `/api/books/${writer.bookId}/chapters/${id}`, {
              token: writer.token,
              body: { content },
            }),
          ),
        )
      ) {
        ack();
      }
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
