import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/realtime/events.ts';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Lets the memory bus deliver what was published (it hands events over on a microtask). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

const isFollowing = async (viewer: TestUser, authorRef: string | number) => {
  const res = await as(t.app, viewer).get(`/api/authors/${authorRef}/is-following`);
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  return JSON.parse(res.body) as unknown;
};

describe('sign-in is required', () => {
  it('answers 401 to every follows call without a session', async () => {
    const author = await signup(t.app);
    const anonymous = as(t.app);
    for (const res of [
      await anonymous.get('/api/my/follows'),
      await anonymous.get(`/api/authors/${author.id}/is-following`),
      await anonymous.post('/api/follows', { author_id: author.id }),
      await anonymous.delete('/api/follows', { author_id: author.id }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('unauthorized');
    }
  });
});

describe('following', () => {
  it('follows an author: 201 {author_id}, is-following turns true, and the author is told once', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const events: DomainEvent[] = [];
    const unsubscribe = t.ctx.events.subscribe((event) => events.push(event));
    try {
      expect(await isFollowing(reader, author.id)).toBe(false);
      const res = await as(t.app, reader).post('/api/follows', { author_id: author.id });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ author_id: author.id, is_following: true });
      expect(await isFollowing(reader, author.id)).toBe(true);
      expect(await isFollowing(reader, author.username.toUpperCase())).toBe(true);
      // Following is one-way.
      expect(await isFollowing(author, reader.id)).toBe(false);

      const repeat = await as(t.app, reader).post('/api/follows', { author_id: author.id });
      expect(repeat.statusCode).toBe(409);
      expect(repeat.json().code).toBe('conflict');

      await settle();
      expect(events.filter((e) => e.type === 'author.followed')).toEqual([
        {
          type: 'author.followed',
          authorId: author.id,
          followerId: reader.id,
          followerUsername: reader.username,
        },
      ]);
    } finally {
      unsubscribe();
    }
  });

  it('refuses to follow yourself with 400 and publishes nothing', async () => {
    const user = await signup(t.app);
    const events: DomainEvent[] = [];
    const unsubscribe = t.ctx.events.subscribe((event) => events.push(event));
    const res = await as(t.app, user).post('/api/follows', { author_id: user.id });
    await settle();
    unsubscribe();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: 'You cannot follow yourself', code: 'validation' });
    expect(events).toEqual([]);
    expect(await isFollowing(user, user.id)).toBe(false);
  });

  it('answers 404 for an unknown author', async () => {
    const reader = await signup(t.app);
    const res = await as(t.app, reader).post('/api/follows', { author_id: 999_999 });
    expect(res.statusCode).toBe(404);
    expect((await as(t.app, reader).get('/api/authors/999999/is-following')).statusCode).toBe(404);
    expect((await as(t.app, reader).get('/api/authors/nobody_here/is-following')).statusCode).toBe(
      404,
    );
  });

  it.each([{}, { author_id: 'abc' }, { author_id: 0 }, { author_id: -3 }, { author_id: 1.5 }])(
    'refuses the body %j with 400',
    async (body) => {
      const reader = await signup(t.app);
      expect((await as(t.app, reader).post('/api/follows', body)).statusCode).toBe(400);
      expect((await as(t.app, reader).delete('/api/follows', body)).statusCode).toBe(400);
    },
  );

  it('lets concurrent identical follows store one follow and answer one 201', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        as(t.app, reader).post('/api/follows', { author_id: author.id }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
  });
});

describe('GET /api/my/follows', () => {
  it('lists the followed authors as public profiles, most recent first', async () => {
    const reader = await signup(t.app);
    const first = await signup(t.app);
    const second = await signup(t.app);
    await as(t.app, first).put(`/api/authors/${first.id}`, {
      first_name: 'Ada',
      biography: '<p>Writes</p>',
      email: 'first@example.com',
    });
    expect((await as(t.app, reader).get('/api/my/follows')).json()).toEqual({ authors: [] });

    await as(t.app, reader).post('/api/follows', { author_id: first.id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await as(t.app, reader).post('/api/follows', { author_id: second.id });

    const res = await as(t.app, reader).get('/api/my/follows');
    expect(res.statusCode).toBe(200);
    // Wrapped in {authors}, as the original backend answers and the spec's client reads it.
    expect(Object.keys(res.json())).toEqual(['authors']);
    expect(res.json().authors.map((a: { id: number }) => a.id)).toEqual([second.id, first.id]);
    expect(res.json().authors[1]).toEqual({
      id: first.id,
      username: first.username,
      first_name: 'Ada',
      last_name: '',
      biography: '<p>Writes</p>',
      avatar: null,
      twitter_link: '',
      facebook_link: '',
      instagram_link: '',
    });
    expect(res.body).not.toMatch(/password|argon|first@example\.com/i);
    // Someone else's follows are their own.
    expect((await as(t.app, first).get('/api/my/follows')).json()).toEqual({ authors: [] });
  });
});

describe('unfollowing', () => {
  it('unfollows with {detail}, then answers 404 when not following', async () => {
    const author = await signup(t.app);
    const reader = await signup(t.app);
    const never = await as(t.app, reader).delete('/api/follows', { author_id: author.id });
    expect(never.statusCode).toBe(404);
    expect(never.json().code).toBe('not_found');

    await as(t.app, reader).post('/api/follows', { author_id: author.id });
    const res = await as(t.app, reader).delete('/api/follows', { author_id: author.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: expect.any(String), is_not_following: true });
    expect(await isFollowing(reader, author.id)).toBe(false);
    expect((await as(t.app, reader).get('/api/my/follows')).json()).toEqual({ authors: [] });

    expect(
      (await as(t.app, reader).delete('/api/follows', { author_id: author.id })).statusCode,
    ).toBe(404);
    expect(
      (await as(t.app, reader).delete('/api/follows', { author_id: 999_999 })).statusCode,
    ).toBe(404);
    // Following again after an unfollow is a new follow, not a repeat.
    expect(
      (await as(t.app, reader).post('/api/follows', { author_id: author.id })).statusCode,
    ).toBe(201);
  });
});
