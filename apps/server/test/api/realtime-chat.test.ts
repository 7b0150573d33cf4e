import { CHAT_LIMITS, WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { closeAllSockets, connect, listen, type TestSocket } from '../helpers/ws.ts';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

const joined = (name: string) => ({
  type: 'system',
  user: 'server',
  message: `<em>${name} has connected.</em>`,
});
const left = (name: string) => ({
  type: 'system',
  user: 'server',
  message: `<em>${name} has disconnected.</em>`,
});

/** Opens the room and waits for the member's own join note, so the history before it has arrived too. */
async function enter(room: string, user: TestUser, query = ''): Promise<TestSocket> {
  const socket = await connect(
    `${base}/chat/${room}?token=${encodeURIComponent(user.token)}${query}`,
  );
  await socket.next((m) => m.user === 'server' && m.message === joined(user.username).message);
  return socket;
}

/** A fresh room (its author) for each test, so histories do not mix. */
const newRoom = () => signup(t.app);

describe('joining a chat room', () => {
  it('refuses a visitor without a token, a bad token and a logged-out token with 4401', async () => {
    const author = await newRoom();
    const loggedOut = await signup(t.app);
    await as(t.app, loggedOut).delete('/token');
    for (const query of ['', '?token=nope', `?token=${loggedOut.token}`]) {
      const socket = await connect(`${base}/chat/${author.username}${query}`);
      expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
    }
  });

  it('refuses the room of an author who does not exist with 4404', async () => {
    const user = await signup(t.app);
    const socket = await connect(`${base}/chat/no_such_author_here?token=${user.token}`);
    expect(await socket.closed).toEqual({ code: WS_CLOSE.notFound, reason: 'No such author' });
  });

  it('announces joins to everyone in the room, the newcomer included', async () => {
    const author = await newRoom();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const annSocket = await enter(author.username, ann);
    await enter(author.username, bob);
    expect(await annSocket.next()).toEqual(joined(bob.username));
  });

  it('finds the room whatever the case of the username', async () => {
    const author = await newRoom();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const annSocket = await enter(author.username, ann);
    await enter(author.username.toUpperCase(), bob);
    expect(await annSocket.next()).toEqual(joined(bob.username));
  });
});

describe('talking', () => {
  it('broadcasts a message to everyone in the room, the sender included, and not to other rooms', async () => {
    const [room, otherRoom] = [await newRoom(), await newRoom()];
    const [ann, bob, cid] = [await signup(t.app), await signup(t.app), await signup(t.app)];
    const annSocket = await enter(room.username, ann);
    const bobSocket = await enter(room.username, bob);
    const cidSocket = await enter(otherRoom.username, cid);
    await annSocket.next(); // bob's join
    annSocket.send('<p>Hello <strong>there</strong></p>');
    const line = { user: ann.username, message: '<p>Hello <strong>there</strong></p>' };
    expect(await annSocket.next()).toEqual(line);
    expect(await bobSocket.next()).toEqual(line);
    expect(await cidSocket.drain(200)).toEqual([]);
  });

  it('sanitizes messages with the content allowlist', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    socket.send(
      '<p onclick="steal()">Hi<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:evil()">x</a></p>',
    );
    const { message } = await socket.next<{ message: string }>();
    expect(message).toBe('<p>Hi<a rel="nofollow noopener">x</a></p>');
  });

  it('answers each message of a connection that asks for acks once, in order, and no one else', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const asking = await enter(room.username, ann, '&acks=1');
    const otherTab = await enter(room.username, ann);
    await asking.next(); // the other tab's join
    asking.send('<p>one</p>');
    asking.send('<script>x</script>'); // nothing once sanitized: answered all the same
    asking.send(Buffer.from('<p>binary</p>'));
    asking.send('<p>two</p>');
    const answers: unknown[] = [];
    while (answers.length < 4) {
      const frame = await asking.next<{ type?: string }>();
      if (frame.type === 'sent' || frame.type === 'error') answers.push(frame);
    }
    expect(answers).toEqual([
      { type: 'sent' },
      { type: 'sent' },
      { type: 'error', detail: 'Messages must be text' },
      { type: 'sent' },
    ]);
    // The spec's clients know only lines: a connection that did not ask gets none of these.
    otherTab.send('<p>three</p>');
    expect(await otherTab.next()).toEqual({ user: ann.username, message: '<p>one</p>' });
    expect(await otherTab.next()).toEqual({ user: ann.username, message: '<p>two</p>' });
    expect(await otherTab.next()).toEqual({ user: ann.username, message: '<p>three</p>' });
    expect(await otherTab.drain(200)).toEqual([]);
  });

  it('drops empty and whitespace-only messages', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    for (const blank of ['', '   ', '<p></p>', '<p> <br></p>', '<script>x</script>'])
      socket.send(blank);
    socket.send('<p>real</p>');
    expect(await socket.next()).toEqual({ user: ann.username, message: '<p>real</p>' });
    expect(await socket.drain(100)).toEqual([]);
  });
});

describe('history', () => {
  it(`sends a joining member the last ${CHAT_LIMITS.historySize} messages, oldest first, before the join note`, async () => {
    const room = await newRoom();
    const bob = await signup(t.app);
    // The rate limit is per user, so several writers share the work; each finishes before the next starts.
    const total = CHAT_LIMITS.historySize + 5;
    let said = 0;
    while (said < total) {
      const writer = await enter(room.username, await signup(t.app));
      for (let i = 0; i < CHAT_LIMITS.burst && said < total; i++)
        writer.send(`<p>line ${++said}</p>`);
      await writer.next((m) => m.message === `<p>line ${said}</p>`);
      await writer.close();
    }

    const bobSocket = await connect(`${base}/chat/${room.username}?token=${bob.token}`);
    const received: Array<{ user: string; message: string }> = [];
    for (;;) {
      const message = await bobSocket.next<{ user: string; message: string }>();
      if (message.user === 'server') {
        expect(message).toEqual(joined(bob.username));
        break;
      }
      received.push(message);
    }
    expect(received).toHaveLength(CHAT_LIMITS.historySize);
    expect(received.map((m) => m.message)).toEqual(
      Array.from(
        { length: CHAT_LIMITS.historySize },
        (_, i) => `<p>line ${total - CHAT_LIMITS.historySize + i + 1}</p>`,
      ),
    );
    expect(received[received.length - 1]!.user).not.toBe('server');
  });

  it('keeps the history when the last member leaves, and the room works again when someone rejoins', async () => {
    const room = await newRoom();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const annSocket = await enter(room.username, ann);
    annSocket.send('<p>anyone?</p>');
    await annSocket.next();
    await annSocket.close();

    const bobSocket = await connect(`${base}/chat/${room.username}?token=${bob.token}`);
    expect(await bobSocket.next()).toEqual({ user: ann.username, message: '<p>anyone?</p>' });
    expect(await bobSocket.next()).toEqual(joined(bob.username));
    bobSocket.send('<p>me</p>');
    expect(await bobSocket.next()).toEqual({ user: bob.username, message: '<p>me</p>' });
    await bobSocket.close();

    const again = await enter(room.username, ann);
    expect(await again.drain(0)).toEqual([
      { user: ann.username, message: '<p>anyone?</p>' },
      { user: bob.username, message: '<p>me</p>' },
    ]);
    again.send('<p>back</p>');
    expect(await again.next()).toEqual({ user: ann.username, message: '<p>back</p>' });
  });
});

describe('leaving', () => {
  it('announces a leave to those who stay', async () => {
    const room = await newRoom();
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    const annSocket = await enter(room.username, ann);
    const bobSocket = await enter(room.username, bob);
    await annSocket.next(); // bob's join
    await bobSocket.close();
    expect(await annSocket.next()).toEqual(left(bob.username));
  });
});

describe('limits', () => {
  const isError = (m: { type?: string }) => m.type === 'error';

  it(`lets a burst of ${CHAT_LIMITS.burst} through, then answers an error frame and drops what is over the rate`, async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    const sent = CHAT_LIMITS.burst + 3;
    for (let i = 1; i <= sent; i++) socket.send(`<p>${i}</p>`);
    const frames = [];
    for (let i = 0; i < sent; i++) frames.push(await socket.next());
    const errors = frames.filter(isError);
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors[0]).toEqual({ type: 'error', detail: 'Too many messages: slow down' });
    expect(frames.filter((f) => !isError(f)).length).toBeLessThanOrEqual(CHAT_LIMITS.burst + 1);
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });

  it('shares the rate between the connections of one user', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const [tab1, tab2] = [await enter(room.username, ann), await enter(room.username, ann)];
    for (let i = 0; i < CHAT_LIMITS.burst; i++) tab1.send(`<p>${i}</p>`);
    await tab1.next((m) => m.message === `<p>${CHAT_LIMITS.burst - 1}</p>`);
    tab2.send('<p>one more</p>');
    expect(await tab2.next(isError)).toMatchObject({ type: 'error' });
  });

  it('refuses a message over 8 KB with an error frame and keeps the connection open', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    socket.send(`<p>${'x'.repeat(CHAT_LIMITS.maxMessageBytes)}</p>`);
    expect(await socket.next()).toEqual({
      type: 'error',
      detail: 'Message too large: at most 8 KB',
    });
    socket.send('<p>short</p>');
    expect(await socket.next()).toEqual({ user: ann.username, message: '<p>short</p>' });
  });

  it('refuses binary frames with an error frame', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    socket.send(Buffer.from('<p>binary</p>'));
    expect(await socket.next()).toEqual({ type: 'error', detail: 'Messages must be text' });
    expect(socket.ws.readyState).toBe(socket.ws.OPEN);
  });

  it('counts bytes, not characters, against the 8 KB', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    socket.send(`<p>${'é'.repeat(CHAT_LIMITS.maxMessageBytes / 2)}</p>`); // 8 KB of text, 16 KB of UTF-8
    expect(await socket.next()).toMatchObject({ type: 'error' });
  });

  it('closes a connection that floods the room with 1008', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    for (let i = 0; i < 60; i++) socket.send(`<p>${i}</p>`);
    expect((await socket.closed).code).toBe(WS_CLOSE.policyViolation);
  });

  it('closes a connection that sends a frame over the 64 KB hard limit with 1009', async () => {
    const room = await newRoom();
    const ann = await signup(t.app);
    const socket = await enter(room.username, ann);
    socket.send('x'.repeat(65 * 1024));
    expect((await socket.closed).code).toBe(WS_CLOSE.messageTooBig);
  });
});
