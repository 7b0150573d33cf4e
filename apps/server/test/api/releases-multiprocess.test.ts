import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import {
  addChapter,
  createPublishedBook,
  dropRedisKeys,
  follow,
  updateChapter,
} from '../helpers/live.ts';
import { directFront, signupOn, unique } from '../helpers/two-processes.ts';
import { closeAllSockets } from '../helpers/ws.ts';
import { startServer, stopAllServers, type ServerProcess } from '../reliability/helpers/process.ts';

/**
 * Issue 20, "Exactly once" and "Downtime": scheduled chapters released by real server processes
 * (`tsx apps/server/src/main.ts`) sharing one PostgreSQL database and Redis, with real times of
 * a few seconds. Every process runs the release job; each chapter is published, and each
 * follower told, once, within 5 s of its time, including a time that fell due while no process
 * ran. PostgreSQL only: the many-process deployment is the PostgreSQL + Redis one.
 */
let database: TestDatabase;
const prefix = `inkwell-rel-${crypto.randomBytes(6).toString('hex')}`;
let env: Record<string, string>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const startTwo = async () => directFront(await Promise.all([startServer(env), startServer(env)]));

async function query<T>(text: string, params: unknown[]): Promise<T[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The chapter's notifications per follower, and whether it is published, straight from the database. */
async function releasedState(chapterId: number) {
  const [chapter] = await query<{ is_published: number; publish_at: string | null }>(
    'select is_published, publish_at from chapters where id = $1',
    [chapterId],
  );
  const rows = await query<{ user_id: number; n: number }>(
    `select user_id, count(*)::int as n from notifications
      where chapter_id = $1 and type = 'CHAPTER' group by user_id order by user_id`,
    [chapterId],
  );
  return { chapter, notifications: rows };
}

/**
 * Every `chapter.published` event any process sends, heard on the deployment's Redis channel: the
 * inbox keeps one row per reader and chapter however often a chapter is published, so only the
 * events tell a double publication.
 */
async function listenForPublications() {
  const { Redis } = await import('ioredis');
  const redis = new Redis('redis://127.0.0.1:6379');
  const heard: number[] = [];
  redis.on('message', (_channel: string, raw: string) => {
    const { event } = JSON.parse(raw) as { event: { type: string; chapterId?: number } };
    if (event.type === 'chapter.published') heard.push(event.chapterId!);
  });
  await redis.subscribe(`${prefix}:events`);
  return {
    of: (chapterId: number) => heard.filter((id) => id === chapterId).length,
    close: () => redis.quit(),
  };
}

describe.runIf(process.env.TEST_DB === 'postgres')(
  'scheduled releases across processes on PostgreSQL',
  () => {
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      env = {
        DATABASE_URL: database.url,
        REDIS_URL: 'redis://127.0.0.1:6379',
        REDIS_PREFIX: prefix,
      };
    });
    afterEach(() => closeAllSockets());
    afterAll(async () => {
      await stopAllServers();
      await dropRedisKeys(prefix);
      await database?.drop();
    });

    // Real processes start in a few seconds each on a busy machine: a bound for "never finished".
    const SLOW = { timeout: 120_000 };

    it(
      'two processes release a due chapter once: one publication, one CHAPTER per follower, within 5 s',
      SLOW,
      async () => {
        const f = await startTwo();
        const publications = await listenForPublications();
        try {
          const author = await signupOn(f, 0, unique('author'));
          const onA = await signupOn(f, 0, unique('reader'));
          const onB = await signupOn(f, 1, unique('reader'));
          await follow(f.on(0, onA), author.id);
          await follow(f.on(1, onB), author.id);
          const book = await createPublishedBook(f.on(0, author), 'Twice Hosted');
          const chapter = await addChapter(f.on(0, author), book.id, 'Punctual');
          const socketA = await f.connect(0, `/ws?token=${onA.token}`);
          const socketB = await f.connect(1, `/ws?token=${onB.token}`);

          const due = Date.now() + 2_000;
          await updateChapter(f.on(1, author), book.id, chapter.id, {
            publish_at: new Date(due).toISOString(),
          });
          const expected = {
            type: 'CHAPTER',
            message: `New chapter of "Twice Hosted" by ${author.username}: Punctual`,
            book_id: book.id,
            chapter_id: chapter.id,
          };
          expect(await socketA.next((m) => m.type === 'CHAPTER', 10_000)).toEqual(expected);
          expect(await socketB.next((m) => m.type === 'CHAPTER', 10_000)).toEqual(expected);
          const late = Date.now() - due;
          expect(late).toBeLessThan(5_000);
          // Both processes had their turns meanwhile: still one of each.
          expect(await socketA.drain(2_500)).toEqual([]);
          expect(await socketB.drain(0)).toEqual([]);
          expect(await releasedState(chapter.id)).toEqual({
            chapter: { is_published: 1, publish_at: null },
            notifications: [
              { user_id: onA.id, n: 1 },
              { user_id: onB.id, n: 1 },
            ].sort((a, b) => a.user_id - b.user_id),
          });
          expect((await f.on(1).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(200);
          expect(publications.of(chapter.id)).toBe(1);
        } finally {
          await publications.close();
          await Promise.all(f.processes.map((p) => p.stop('SIGTERM')));
        }
      },
    );

    it(
      'a release that fell due while every process was down happens at the next start, once',
      SLOW,
      async () => {
        let f = await startTwo();
        const author = await signupOn(f, 0, unique('author'));
        const reader = await signupOn(f, 1, unique('reader'));
        await follow(f.on(1, reader), author.id);
        const book = await createPublishedBook(f.on(0, author), 'Offline');
        const chapter = await addChapter(f.on(0, author), book.id, 'While Down');
        const due = Date.now() + 3_000;
        await updateChapter(f.on(0, author), book.id, chapter.id, {
          publish_at: new Date(due).toISOString(),
        });
        await Promise.all(f.processes.map((p: ServerProcess) => p.stop('SIGTERM')));
        expect((await releasedState(chapter.id)).chapter!.is_published).toBe(0);
        await sleep(Math.max(0, due - Date.now()) + 1_000);
        // Still not released: nobody ran.
        expect((await releasedState(chapter.id)).chapter!.is_published).toBe(0);

        // Listening before the processes start: they release at once.
        const publications = await listenForPublications();
        f = await startTwo();
        const started = Date.now();
        try {
          let state = await releasedState(chapter.id);
          while (state.chapter!.is_published === 0 && Date.now() - started < 10_000) {
            await sleep(100);
            state = await releasedState(chapter.id);
          }
          expect(Date.now() - started).toBeLessThan(5_000);
          // Let both processes take further turns, then count.
          await sleep(2_500);
          expect(await releasedState(chapter.id)).toEqual({
            chapter: { is_published: 1, publish_at: null },
            notifications: [{ user_id: reader.id, n: 1 }],
          });
          const inbox = (await f.on(0, reader).get('/api/my/notifications')).json();
          expect(
            inbox.notifications.filter((n: { chapter_id: number }) => n.chapter_id === chapter.id),
          ).toHaveLength(1);
          expect(publications.of(chapter.id)).toBe(1);
        } finally {
          await publications.close();
          await Promise.all(f.processes.map((p) => p.stop('SIGTERM')));
        }
      },
    );
  },
);
