import crypto from 'node:crypto';
import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SESSION_ENDED_REASON } from '../../../src/realtime/session-sockets.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { dropRedisKeys } from '../../helpers/live.ts';
import { closeAllSockets, closing, connect, type TestSocket } from '../../helpers/ws.ts';
import { startServer, stopAllServers, type ServerProcess } from '../helpers/process.ts';
import { call, signupOver } from '../helpers/workload.ts';

/**
 * Two real server processes on one PostgreSQL database and the local Redis: a session ended on
 * one process closes the sockets opened with it on the other.
 */
let database: TestDatabase | undefined;
const prefix = `inkwell-rel-${crypto.randomBytes(5).toString('hex')}`;
afterEach(() => closeAllSockets());
afterAll(async () => {
  await stopAllServers();
  await dropRedisKeys(prefix);
  await database?.drop();
});

const ENDED = { code: WS_CLOSE.unauthorized, reason: SESSION_ENDED_REASON };

describe('ending a session on one process of two', () => {
  it("closes that session's sockets on the other process, and spares the user's other sessions", async () => {
    database = await createTestDatabase('postgres');
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: prefix,
    };
    // One after the other: each runs the migrations as it starts.
    const A = await startServer(env);
    const B = await startServer(env);

    const suffix = crypto.randomBytes(3).toString('hex');
    const user = await signupOver(A.http, `ended_${suffix}`);
    const room = await signupOver(A.http, `room_${suffix}`);
    const login = async (server: ServerProcess) => {
      const answer = await call(server.http, 'POST', '/token', {
        body: { username: user.username, password: 'correct horse battery' },
      });
      expect(answer.status).toBe(200);
      return answer.body.access_token as string;
    };
    const [kept, laptop] = [await login(B), await login(A)];
    const tabs = async (server: ServerProcess, token: string) => {
      const stream = await connect(`${server.ws}/ws?token=${token}`);
      const chat = await connect(`${server.ws}/chat/${room.username}?token=${token}`);
      await chat.next((m) => m.user === 'server');
      return [stream, chat];
    };

    // Logout through A; the session's sockets are on B.
    const loggedOutOnB = await tabs(B, user.token);
    const keptOnA = await tabs(A, kept);
    const laptopOnA = await tabs(A, laptop);
    const laptopOnB = await tabs(B, laptop);
    expect((await call(A.http, 'DELETE', '/token', { token: user.token })).status).toBe(200);
    for (const socket of loggedOutOnB) expect(await closing(socket)).toEqual(ENDED);

    // A password change through B, by the kept session: the laptop's sockets close on both.
    const changed = await call(B.http, 'PUT', `/api/authors/${user.id}`, {
      token: kept,
      body: { password: 'a brand new passphrase' },
    });
    expect(changed.status).toBe(200);
    for (const socket of [...laptopOnA, ...laptopOnB]) expect(await closing(socket)).toEqual(ENDED);

    // The session that changed the password is still served on A, by events sent through B.
    const fan = await signupOver(B.http, `fan_${suffix}`);
    const followed = await call(B.http, 'POST', '/api/follows', {
      token: fan.token,
      body: { author_id: user.id },
    });
    expect(followed.status).toBe(201);
    const [keptStream, keptChat] = keptOnA as [TestSocket, TestSocket];
    expect(await keptStream.next((m) => m.type === 'FOLLOW', 10_000)).toMatchObject({
      follower: fan.username,
    });
    const fanChat = await connect(`${B.ws}/chat/${room.username}?token=${fan.token}`);
    await fanChat.next((m) => m.user === 'server');
    fanChat.send('<p>across</p>');
    expect(await keptChat.next((m) => m.user === fan.username, 10_000)).toEqual({
      user: fan.username,
      message: '<p>across</p>',
    });
  });
});
