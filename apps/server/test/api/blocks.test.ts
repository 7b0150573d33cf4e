import { WS_CLOSE } from '@inkwell/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { closeAllSockets, closing, connect, listen, type TestSocket } from '../helpers/ws.ts';

/** Issue 19: blocks and mutes, their lists and what they do outside comments (chat). */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterEach(() => closeAllSockets());
afterAll(() => t.close());

const LISTS = [
  ['blocks', 'block'],
  ['mutes', 'mute'],
] as const;

const usernamesOn = async (who: TestUser, list: string) => {
  const res = await as(t.app, who).get(`/api/my/${list}`);
  expect(res.statusCode).toBe(200);
  return res.json().users.map((u: { username: string }) => u.username) as string[];
};

describe.each(LISTS)('/api/my/%s', (list, verb) => {
  it('answers 401 without a session', async () => {
    const other = await signup(t.app);
    for (const res of [
      await as(t.app).get(`/api/my/${list}`),
      await as(t.app).post(`/api/my/${list}`, { username: other.username }),
      await as(t.app).delete(`/api/my/${list}/${other.username}`),
    ]) {
      expect(res.statusCode).toBe(401);
    }
  });

  it('adds by username (a repeat is 2xx and adds nothing), lists newest first, removes', async () => {
    const me = await signup(t.app);
    const [ann, bob] = [await signup(t.app), await signup(t.app)];
    expect(await usernamesOn(me, list)).toEqual([]);

    const added = await as(t.app, me).post(`/api/my/${list}`, { username: ann.username });
    expect(added.statusCode).toBe(200);
    expect(added.json().users).toEqual([
      {
        id: ann.id,
        username: ann.username,
        first_name: '',
        last_name: '',
        avatar: null,
        since: expect.any(String),
      },
    ]);
    const repeat = await as(t.app, me).post(`/api/my/${list}`, {
      username: ann.username.toUpperCase(),
    });
    expect(repeat.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Form encoding, as the other routes accept.
    const form = await t.app.inject({
      method: 'POST',
      url: `/api/my/${list}`,
      headers: {
        authorization: `Bearer ${me.token}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: `username=${encodeURIComponent(bob.username)}`,
    });
    expect(form.statusCode).toBe(200);
    expect(await usernamesOn(me, list)).toEqual([bob.username, ann.username]);
    // Lists are per user.
    expect(await usernamesOn(ann, list)).toEqual([]);

    const removed = await as(t.app, me).delete(`/api/my/${list}/${ann.username}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().users.map((u: { username: string }) => u.username)).toEqual([
      bob.username,
    ]);
    const again = await as(t.app, me).delete(`/api/my/${list}/${ann.username}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('not_found');
  });

  it(`refuses to ${verb} yourself with 400 and an unknown user with 404`, async () => {
    const me = await signup(t.app);
    const self = await as(t.app, me).post(`/api/my/${list}`, { username: me.username });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ detail: `You cannot ${verb} yourself`, code: 'validation' });
    const unknown = await as(t.app, me).post(`/api/my/${list}`, { username: 'no_such_user_x' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'User not found', code: 'not_found' });
    expect((await as(t.app, me).delete(`/api/my/${list}/no_such_user_x`)).statusCode).toBe(404);
    const missing = await as(t.app, me).post(`/api/my/${list}`, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('validation');
    expect(await usernamesOn(me, list)).toEqual([]);
  });
});

describe('notifications', () => {
  it('a muted user who follows the author notifies no one; the follow itself is kept', async () => {
    const author = await signup(t.app);
    const [muted, fan] = [await signup(t.app), await signup(t.app)];
    await as(t.app, author).post('/api/my/mutes', { username: muted.username });
    expect((await as(t.app, muted).post('/api/follows', { author_id: author.id })).statusCode).toBe(
      201,
    );
    expect((await as(t.app, fan).post('/api/follows', { author_id: author.id })).statusCode).toBe(
      201,
    );
    await new Promise((resolve) => setImmediate(resolve));
    const inbox = (await as(t.app, author).get('/api/my/notifications')).json().notifications;
    expect(inbox.map((n: { follower: string }) => n.follower)).toEqual([fan.username]);
    expect((await as(t.app, muted).get(`/api/authors/${author.id}/is-following`)).json()).toBe(
      true,
    );
  });
});

const joinedNote = (name: string) => `<em>${name} has connected.</em>`;

/** Opens the room and waits for the member's own join note (the history has come before it). */
async function enter(room: string, user: TestUser): Promise<TestSocket> {
  const socket = await connect(`${base}/chat/${room}?token=${encodeURIComponent(user.token)}`);
  await socket.next((m) => m.user === 'server' && m.message === joinedNote(user.username));
  return socket;
}

describe("the author's chat room", () => {
  it('refuses a user the author blocked with 4403, and admits them again once unblocked', async () => {
    const author = await signup(t.app);
    const pest = await signup(t.app);
    await as(t.app, author).post('/api/my/blocks', { username: pest.username });
    const refused = await connect(`${base}/chat/${author.username}?token=${pest.token}`);
    expect(await refused.closed).toEqual({
      code: WS_CLOSE.forbidden,
      reason: 'The author has blocked you',
    });
    // Someone else's block list is not the room's: another author's room still admits them.
    const other = await signup(t.app);
    await enter(other.username, pest);

    await as(t.app, author).delete(`/api/my/blocks/${pest.username}`);
    await enter(author.username, pest);
  });

  it("hides a muted user's lines from the muter only, live and in the history", async () => {
    const author = await signup(t.app);
    const [muter, loud, bystander] = [
      await signup(t.app),
      await signup(t.app),
      await signup(t.app),
    ];
    await as(t.app, muter).post('/api/my/mutes', { username: loud.username });

    // History first: a line said before the muter joins.
    const loudSocket = await enter(author.username, loud);
    loudSocket.send('<p>before</p>');
    await loudSocket.next((m) => m.message === '<p>before</p>');

    const muterSocket = await enter(author.username, muter);
    const bystanderSocket = await enter(author.username, bystander);
    loudSocket.send('<p>during</p>');
    bystanderSocket.send('<p>hello</p>');

    expect(await bystanderSocket.next((m) => m.message === '<p>during</p>')).toEqual({
      user: loud.username,
      message: '<p>during</p>',
    });
    // The muter gets the bystander's line (sent after the muted one), and nothing of the muted.
    expect(await muterSocket.next((m) => m.message === '<p>hello</p>')).toEqual({
      user: bystander.username,
      message: '<p>hello</p>',
    });
    expect(await muterSocket.drain(200, (m) => m.user === loud.username)).toEqual([]);

    // The bystander's history replay had the earlier line; the muter's did not.
    const late = await signup(t.app);
    const lateSocket = await connect(`${base}/chat/${author.username}?token=${late.token}`);
    expect(await lateSocket.next((m) => m.message === '<p>before</p>')).toMatchObject({
      user: loud.username,
    });

    // Unmuted, the next join gets the lines again.
    await muterSocket.close();
    await as(t.app, muter).delete(`/api/my/mutes/${loud.username}`);
    const again = await connect(`${base}/chat/${author.username}?token=${muter.token}`);
    expect(await again.next((m) => m.message === '<p>during</p>')).toMatchObject({
      user: loud.username,
    });
  });

  it('keeps a muted user hidden after they rename, live and in the history', async () => {
    const author = await signup(t.app);
    const [muter, loud] = [await signup(t.app), await signup(t.app)];
    const before = await enter(author.username, loud);
    before.send('<p>said before</p>');
    await before.next((m) => m.message === '<p>said before</p>');
    await as(t.app, muter).post('/api/my/mutes', { username: loud.username });
    const muterSocket = await enter(author.username, muter);

    const renamed = await as(t.app, loud).put(`/api/authors/${loud.id}`, {
      username: `${loud.username}_new`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const after = await enter(author.username, { ...loud, username: `${loud.username}_new` });
    after.send('<p>said as someone new</p>');
    expect(await after.next((m) => m.message === '<p>said as someone new</p>')).toMatchObject({
      user: `${loud.username}_new`,
    });
    expect(await muterSocket.drain(200, (m) => String(m.message).startsWith('<p>said'))).toEqual(
      [],
    );

    // Joining again, the history holds both lines: neither reaches the muter.
    await muterSocket.close();
    const again = await enter(author.username, muter);
    expect(await again.drain(300, (m) => String(m.message).startsWith('<p>said'))).toEqual([]);
  });

  it('applies a mute and an unmute made while the muter is in the room at once', async () => {
    const author = await signup(t.app);
    const [muter, loud] = [await signup(t.app), await signup(t.app)];
    const muterSocket = await enter(author.username, muter);
    const loudSocket = await enter(author.username, loud);
    await as(t.app, muter).post('/api/my/mutes', { username: loud.username });
    loudSocket.send('<p>muted now</p>');
    await loudSocket.next((m) => m.message === '<p>muted now</p>');
    await as(t.app, muter).delete(`/api/my/mutes/${loud.username}`);
    loudSocket.send('<p>heard again</p>');
    expect(await muterSocket.next((m) => m.user === loud.username)).toEqual({
      user: loud.username,
      message: '<p>heard again</p>',
    });
  });

  it("closes a user's open socket in the room with 4403 when the author blocks them", async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const pest = await signup(t.app);
    const inRoom = await enter(author.username, pest);
    const elsewhere = await enter(other.username, pest);
    await as(t.app, author).post('/api/my/blocks', { username: pest.username });
    expect(await closing(inRoom)).toEqual({
      code: WS_CLOSE.forbidden,
      reason: 'The author has blocked you',
    });
    // Only the blocker's room: the pest's socket in another author's room stays open.
    elsewhere.send('<p>still here</p>');
    expect(await elsewhere.next((m) => m.message === '<p>still here</p>')).toMatchObject({
      user: pest.username,
    });
  });
});
