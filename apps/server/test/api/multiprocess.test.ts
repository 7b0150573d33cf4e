import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import {
  addChapter,
  createPublishedBook,
  dropRedisKeys,
  follow,
  overHttp,
  updateChapter,
} from '../helpers/live.ts';
import { closeAllSockets, connect } from '../helpers/ws.ts';

/**
 * Two real server processes (`tsx apps/server/src/main.ts`) behind no load balancer, sharing one
 * PostgreSQL database and the local Redis: what one process hears, the other's clients get.
 * PostgreSQL only: the many-process deployment is the PostgreSQL + Redis one.
 */
const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

interface Server {
  child: ChildProcess;
  http: string;
  ws: string;
  output: string[];
}

let database: TestDatabase;
let uploadDir: string;
// A prefix of its own, so test runs in parallel never hear each other's events.
const prefix = `inkwell-mp-${crypto.randomBytes(6).toString('hex')}`;
const servers: Server[] = [];

describe.runIf(process.env.TEST_DB === 'postgres')(
  'two server processes on PostgreSQL and Redis',
  () => {
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-mp-'));
      servers.push(...(await Promise.all([startServer(), startServer()])));
    });
    afterEach(() => closeAllSockets());
    afterAll(async () => {
      await Promise.all(servers.map(stopServer));
      await dropRedisKeys(prefix);
      await database?.drop();
      if (uploadDir) fs.rmSync(uploadDir, { recursive: true, force: true });
    });

    const signupOn = async (server: Server, username: string) => {
      const res = await overHttp(server.http).post('/api/authors', {
        username,
        password: 'correct horse battery',
      });
      expect(res.statusCode).toBe(201);
      return {
        id: res.json().account.id as number,
        username,
        token: res.json().access_token as string,
      };
    };
    const unique = (name: string) => `${name}_${crypto.randomBytes(3).toString('hex')}`;

    async function countRows(where: string, params: unknown[]): Promise<number> {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          `select count(*)::int as n from notifications where ${where}`,
          params,
        );
        return rows[0].n;
      } finally {
        await client.end();
      }
    }

    it('a follower connected to A gets the CHAPTER the author publishes through B, stored once', async () => {
      const [A, B] = servers as [Server, Server];
      const author = await signupOn(A, unique('author'));
      const reader = await signupOn(B, unique('reader'));
      const authorStream = await connect(`${B.ws}/ws?token=${author.token}`);
      await follow(overHttp(A.http, reader), author.id);
      expect(await authorStream.next()).toEqual({
        type: 'FOLLOW',
        message: `${reader.username} is now following you`,
        follower: reader.username,
      });

      const readerOnA = await connect(`${A.ws}/ws?token=${reader.token}`);
      const book = await createPublishedBook(overHttp(B.http, author), 'Two Hosts');
      const chapter = await addChapter(overHttp(B.http, author), book.id, 'Relay');
      await updateChapter(overHttp(B.http, author), book.id, chapter.id, { is_published: true });
      expect(await readerOnA.next()).toEqual({
        type: 'CHAPTER',
        message: `New chapter of "Two Hosts" by ${author.username}: Relay`,
        book_id: book.id,
        chapter_id: chapter.id,
      });

      // Both processes received both events; each inbox row exists once.
      expect(await countRows('user_id = $1 and chapter_id = $2', [reader.id, chapter.id])).toBe(1);
      expect(await countRows(`user_id = $1 and type = 'FOLLOW'`, [author.id])).toBe(1);
      const listed = (await overHttp(A.http, reader).get('/api/my/notifications')).json();
      expect(listed.notifications.map((n: { chapter_id: number }) => n.chapter_id)).toEqual([
        chapter.id,
      ]);
    });

    it('one chat room spans both processes, history included', async () => {
      const [A, B] = servers as [Server, Server];
      const [author, ann, bob] = await Promise.all(
        ['author', 'ann', 'bob'].map((n) => signupOn(A, unique(n))),
      );
      const annSocket = await connect(`${A.ws}/chat/${author!.username}?token=${ann!.token}`);
      await annSocket.next((m) => m.user === 'server');
      annSocket.send('<p>hello from A<script>x()</script></p>');
      await annSocket.next((m) => m.user === ann!.username);

      const bobSocket = await connect(`${B.ws}/chat/${author!.username}?token=${bob!.token}`);
      expect(await bobSocket.next()).toEqual({
        user: ann!.username,
        message: '<p>hello from A</p>',
      });
      expect(await bobSocket.next()).toEqual({
        type: 'system',
        user: 'server',
        message: `<em>${bob!.username} has connected.</em>`,
      });
      expect(await annSocket.next()).toEqual({
        type: 'system',
        user: 'server',
        message: `<em>${bob!.username} has connected.</em>`,
      });
      bobSocket.send('<p>hello from B</p>');
      expect(await annSocket.next()).toEqual({
        user: bob!.username,
        message: '<p>hello from B</p>',
      });
      await bobSocket.close();
      expect(await annSocket.next()).toEqual({
        type: 'system',
        user: 'server',
        message: `<em>${bob!.username} has disconnected.</em>`,
      });
    });

    it('a process stopped with SIGTERM closes its sockets with 1001 "going away"', async () => {
      const B = servers[1]!;
      const user = await signupOn(B, unique('leaver'));
      const socket = await connect(`${B.ws}/ws?token=${user.token}`);
      await stopServer(B);
      expect((await socket.closed).code).toBe(1001);
      expect(B.child.exitCode).toBe(0);
    });

    async function startServer(): Promise<Server> {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: database.url,
          REDIS_URL: 'redis://127.0.0.1:6379',
          REDIS_PREFIX: prefix,
          UPLOAD_DIR: uploadDir,
          WEB_DIST_DIR: path.join(uploadDir, 'none'),
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const output: string[] = [];
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`server did not start:\n${output.join('')}`)),
          30_000,
        );
        const read = (chunk: Buffer) => {
          output.push(chunk.toString());
          const found = /Server listening at (http:\/\/[\d.:]+)/.exec(output.join(''));
          if (found) {
            clearTimeout(timer);
            resolve(found[1]!);
          }
        };
        child.stdout!.on('data', read);
        child.stderr!.on('data', read);
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server exited with ${code}:\n${output.join('')}`));
        });
      });
      return { child, http: address, ws: address.replace(/^http/, 'ws'), output };
    }
  },
);

async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
