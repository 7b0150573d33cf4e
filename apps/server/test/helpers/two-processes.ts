import crypto from 'node:crypto';
import pg from 'pg';
import { expect, it } from 'vitest';
import type { ServerProcess } from '../reliability/helpers/process.ts';
import {
  addChapter,
  createPublishedBook,
  follow,
  overHttp,
  updateChapter,
  type Caller,
} from './live.ts';
import type { Nginx } from './nginx.ts';
import { connect, type TestSocket } from './ws.ts';

/**
 * The two-process scenarios (multiprocess.test.ts), written once against a front: the two
 * processes themselves, or nginx in front of them (behind-nginx.test.ts). Each step names the
 * process it must reach; through nginx, which balances plainly round robin, the front steers
 * the step there and checks nginx's X-Inkwell-Upstream header (the tests' config adds it) says
 * so, so "on different processes" stays true through the load balancer.
 */
export interface Front {
  /** HTTP to process `i`, as `user` (bearer) or a visitor. */
  on(i: 0 | 1, user?: { token: string } | null): Caller;
  /** A socket to process `i`: `path` is e.g. `/ws?token=...`. */
  connect(i: 0 | 1, path: string): Promise<TestSocket>;
  /** A socket to whichever process the front picks. */
  connectAny(path: string): Promise<TestSocket>;
  processes: ServerProcess[];
}

/** Straight to the processes. */
export function directFront(processes: ServerProcess[]): Front {
  return {
    processes,
    on: (i, user) => overHttp(processes[i]!.http, user),
    connect: (i, path) => connect(`${processes[i]!.ws}${path}`),
    connectAny: (path) => connect(`${processes[0]!.ws}${path}`),
  };
}

export const UPSTREAM_HEADER = 'x-inkwell-upstream';

/** The process (127.0.0.1:port) nginx says answered, from its X-Inkwell-Upstream header. */
export function upstreamOf(headers: Headers | Record<string, unknown>): string {
  const value =
    headers instanceof Headers ? headers.get(UPSTREAM_HEADER) : headers[UPSTREAM_HEADER];
  // After a retry nginx lists every process it tried: the last one answered.
  return String(value ?? '')
    .split(',')
    .at(-1)!
    .trim();
}

/**
 * Makes nginx's next request go to `address`. Round robin over two processes alternates: ask
 * /healthz until another process answers, and the next request is this one's.
 */
export async function steerTo(nginx: Nginx, address: string): Promise<void> {
  for (let tries = 0; tries < 4; tries++) {
    const res = await fetch(`${nginx.http}/healthz`);
    await res.arrayBuffer();
    if (upstreamOf(res.headers) !== address) return;
  }
  throw new Error(`nginx keeps sending /healthz to ${address}: is the other process up?`);
}

/** Through nginx, each step steered to the process it names. */
export function nginxFront(nginx: Nginx, processes: ServerProcess[]): Front {
  const address = (i: number) => `127.0.0.1:${processes[i]!.port}`;
  const expectAt = (i: number, where: string, what: string) => {
    if (where !== address(i))
      throw new Error(`${what} reached ${where || 'no process'}, not process ${i} (${address(i)})`);
  };
  return {
    processes,
    on: (i, user) =>
      overHttp(nginx.http, user, {
        before: () => steerTo(nginx, address(i)),
        check: (headers) => expectAt(i, upstreamOf(headers), 'a request'),
      }),
    async connect(i, path) {
      await steerTo(nginx, address(i));
      const socket = await connect(`${nginx.ws}${path}`);
      expectAt(i, upstreamOf(socket.headers), `the socket ${path.split('?')[0]}`);
      return socket;
    },
    connectAny: (path) => connect(`${nginx.ws}${path}`),
  };
}

export const unique = (name: string) => `${name}_${crypto.randomBytes(3).toString('hex')}`;

export async function signupOn(front: Front, i: 0 | 1, username: string) {
  const res = await front.on(i).post('/api/authors', {
    username,
    password: 'correct horse battery',
  });
  expect(res.statusCode).toBe(201);
  return {
    id: res.json().account.id as number,
    username,
    token: res.json().access_token as string,
  };
}

/**
 * The scenarios: what one process hears, the other's clients get. `front()` is read when each
 * test runs (the suite's beforeAll builds it). The last one stops process 1.
 */
export function twoProcessScenarios(front: () => Front, databaseUrl: () => string): void {
  async function countRows(where: string, params: unknown[]): Promise<number> {
    const client = new pg.Client({ connectionString: databaseUrl() });
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
    const f = front();
    const author = await signupOn(f, 0, unique('author'));
    const reader = await signupOn(f, 1, unique('reader'));
    const authorStream = await f.connect(1, `/ws?token=${author.token}`);
    await follow(f.on(0, reader), author.id);
    expect(await authorStream.next()).toEqual({
      type: 'FOLLOW',
      message: `${reader.username} is now following you`,
      follower: reader.username,
    });

    const readerOnA = await f.connect(0, `/ws?token=${reader.token}`);
    const book = await createPublishedBook(f.on(1, author), 'Two Hosts');
    const chapter = await addChapter(f.on(1, author), book.id, 'Relay');
    await updateChapter(f.on(1, author), book.id, chapter.id, { is_published: true });
    expect(await readerOnA.next()).toEqual({
      type: 'CHAPTER',
      message: `New chapter of "Two Hosts" by ${author.username}: Relay`,
      book_id: book.id,
      chapter_id: chapter.id,
    });

    // Both processes received both events; each inbox row exists once.
    expect(await countRows('user_id = $1 and chapter_id = $2', [reader.id, chapter.id])).toBe(1);
    expect(await countRows(`user_id = $1 and type = 'FOLLOW'`, [author.id])).toBe(1);
    const listed = (await f.on(0, reader).get('/api/my/notifications')).json();
    expect(listed.notifications.map((n: { chapter_id: number }) => n.chapter_id)).toEqual([
      chapter.id,
    ]);
  });

  it('a COMMENT written through A reaches the author on B, and the REPLY through B the reader on A, stored once', async () => {
    const f = front();
    const author = await signupOn(f, 0, unique('author'));
    const reader = await signupOn(f, 0, unique('reader'));
    const book = await createPublishedBook(f.on(0, author), 'Talked About');
    const chapter = await addChapter(f.on(0, author), book.id, 'Cliffhanger');
    await updateChapter(f.on(0, author), book.id, chapter.id, { is_published: true });
    const authorOnB = await f.connect(1, `/ws?token=${author.token}`);
    const readerOnA = await f.connect(0, `/ws?token=${reader.token}`);

    const written = await f.on(0, reader).post(`/api/chapters/${chapter.id}/comments`, {
      body: 'No! <span class="spoiler">Not the dog</span>',
    });
    expect(written.statusCode).toBe(201);
    const commentId = written.json().id as number;
    expect(await authorOnB.next()).toEqual({
      type: 'COMMENT',
      message: `${reader.username} commented on "Cliffhanger": No! [spoiler]`,
      book_id: book.id,
      chapter_id: chapter.id,
      comment_id: commentId,
    });

    const reply = await f.on(1, author).post(`/api/chapters/${chapter.id}/comments`, {
      body: 'Wait for it',
      parent_id: commentId,
    });
    expect(reply.statusCode).toBe(201);
    expect(await readerOnA.next()).toEqual({
      type: 'REPLY',
      message: `${author.username} replied on "Cliffhanger": Wait for it`,
      book_id: book.id,
      chapter_id: chapter.id,
      comment_id: reply.json().id,
    });
    expect(await countRows(`user_id = $1 and type = 'COMMENT'`, [author.id])).toBe(1);
    expect(await countRows(`user_id = $1 and type = 'REPLY'`, [reader.id])).toBe(1);
    expect(await authorOnB.drain(300)).toEqual([]);
  });

  it('one chat room spans both processes, history included', async () => {
    const f = front();
    const author = await signupOn(f, 0, unique('author'));
    const ann = await signupOn(f, 0, unique('ann'));
    const bob = await signupOn(f, 0, unique('bob'));
    const annSocket = await f.connect(0, `/chat/${author.username}?token=${ann.token}`);
    await annSocket.next((m) => m.user === 'server');
    annSocket.send('<p>hello from A<script>x()</script></p>');
    await annSocket.next((m) => m.user === ann.username);

    const bobSocket = await f.connect(1, `/chat/${author.username}?token=${bob.token}`);
    expect(await bobSocket.next()).toEqual({
      user: ann.username,
      message: '<p>hello from A</p>',
    });
    expect(await bobSocket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${bob.username} has connected.</em>`,
    });
    expect(await annSocket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${bob.username} has connected.</em>`,
    });
    bobSocket.send('<p>hello from B</p>');
    expect(await annSocket.next()).toEqual({
      user: bob.username,
      message: '<p>hello from B</p>',
    });
    await bobSocket.close();
    expect(await annSocket.next()).toEqual({
      type: 'system',
      user: 'server',
      message: `<em>${bob.username} has disconnected.</em>`,
    });
  });

  it('a process stopped with SIGTERM closes its sockets with 1001 "going away"; a new one opens on the other', async () => {
    const f = front();
    const B = f.processes[1]!;
    const user = await signupOn(f, 1, unique('leaver'));
    const socket = await f.connect(1, `/ws?token=${user.token}`);
    const exit = await B.stop('SIGTERM');
    expect((await socket.closed).code).toBe(1001);
    expect(exit).toEqual({ code: 0, signal: null });
    const again = await f.connectAny(`/ws?token=${user.token}`);
    expect(again.ws.readyState).toBe(again.ws.OPEN);
  });
}
