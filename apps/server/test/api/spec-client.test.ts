import type { FastifyInstance } from 'fastify';
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
import { makeImage, multipart } from '../helpers/images.ts';

/**
 * The spec's own client (the original product's React app, daisukev/novel-nexus ghi/) must work
 * against Inkwell unchanged (issue 23 §0). Each call here is sent exactly as that client sends it:
 * its encodings, headers and value types, and its reads of the answer.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_FAILURES: '1000' });
});
afterAll(() => t.close());

/** A body as the browser makes it from `new FormData()` with text fields (multipart/form-data). */
function formData(fields: [string, string][]) {
  const boundary = `----WebKitFormBoundary${Math.random().toString(36).slice(2, 18)}`;
  const parts = fields.map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The same fields as `new URLSearchParams()` sends them (application/x-www-form-urlencoded). */
function urlEncoded(fields: [string, string][]) {
  return {
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

const ENCODINGS = { multipart: formData, urlencoded: urlEncoded } as const;

const login = (app: FastifyInstance, body: { payload: string | Buffer; headers: object }) =>
  app.inject({ method: 'POST', url: '/token', ...body, headers: { ...body.headers } });

describe.each(Object.entries(ENCODINGS))('POST /token as %s', (_name, encode) => {
  let user: TestUser;
  beforeAll(async () => {
    user = await signup(t.app);
  });

  it('signs in: the token, the cookie, and GET /token then knows the session', async () => {
    const res = await login(
      t.app,
      encode([
        ['username', user.username],
        ['password', user.password],
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
    const cookie = res.cookies.find((c) => c.name === 'fastapi_token');
    expect(cookie?.value).toBe(res.json().access_token);
    // What the spec's client does next: GET /token with the cookie.
    const session = await t.app.inject({
      method: 'GET',
      url: '/token',
      cookies: { fastapi_token: cookie!.value },
    });
    expect(session.json().access_token).toBe(res.json().access_token);
    expect(session.json().account.username).toBe(user.username);
  });

  it('keeps a password with spaces, quotes and non-ASCII exactly as typed', async () => {
    const other = await signup(t.app);
    const password = 'ünï "côdé" & = %20 +';
    const changed = await as(t.app, other).put(`/api/authors/${other.id}`, { password });
    expect(changed.statusCode).toBe(200);
    const res = await login(
      t.app,
      encode([
        ['username', other.username],
        ['password', password],
      ]),
    );
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password 401', async () => {
    const res = await login(
      t.app,
      encode([
        ['username', user.username],
        ['password', 'not the password'],
      ]),
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });

  it.each([
    ['a missing password', [['username', 'someone']], 'password'],
    ['a missing username', [['password', 'whatever-it-is']], 'username'],
    ['an empty form', [], 'username'],
    [
      'a password over the limit',
      [
        ['username', 'someone'],
        ['password', 'x'.repeat(257)],
      ],
      'password',
    ],
    [
      'a repeated field',
      [
        ['username', 'someone'],
        ['password', 'one-password'],
        ['password', 'two-password'],
      ],
      'password',
    ],
  ] as [string, [string, string][], string][])(
    'answers %s 400, naming the field',
    async (_what, fields, field) => {
      const res = await login(t.app, encode(fields));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: expect.stringMatching(new RegExp(`^${field}: `)),
        code: 'validation',
        field,
      });
    },
  );

  it('answers a NUL character 400, as in any other body', async () => {
    const res = await login(
      t.app,
      encode([
        ['username', 'some\u0000one'],
        ['password', 'whatever-it-is'],
      ]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
  });
});

describe('POST /token: both encodings answer alike', () => {
  it('gives the same status and error for the same fields', async () => {
    const user = await signup(t.app);
    const cases: [string, string][][] = [
      [
        ['username', user.username],
        ['password', 'wrong-password'],
      ],
      [['username', user.username]],
      [
        ['username', 'x'.repeat(101)],
        ['password', 'whatever-it-is'],
      ],
    ];
    for (const fields of cases) {
      const a = await login(t.app, formData(fields));
      const b = await login(t.app, urlEncoded(fields));
      expect([a.statusCode, a.json()]).toEqual([b.statusCode, b.json()]);
    }
  });

  it('answers a body over the limit 413 in either encoding', async () => {
    const fields: [string, string][] = [
      ['username', 'someone'],
      ['password', 'x'.repeat(1024 * 1024 + 10)],
    ];
    for (const body of [formData(fields), urlEncoded(fields)]) {
      const res = await login(t.app, body);
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('payload_too_large');
    }
  });

  it('refuses a file in the login form with 400', async () => {
    const form = multipart('password', Buffer.from('secret'), 'p.txt', 'text/plain');
    const res = await login(t.app, form);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
  });
});

describe('the spec client’s other calls', () => {
  let author: TestUser;
  let reader: TestUser;
  beforeAll(async () => {
    author = await signup(t.app);
    reader = await signup(t.app);
  });

  /** fetchWithToken(url, method, {'Content-Type': 'application/json'}, {body}) */
  const jsonCall = (
    user: TestUser,
    method: 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { payload: JSON.stringify(body) }),
    });

  it('GET /api/my/follows answers {authors} (the /following page reads it so)', async () => {
    // ProfilePage: POST /api/follows {author_id} with the JSON content type; DELETE alike.
    const followed = await jsonCall(reader, 'POST', '/api/follows', { author_id: author.id });
    expect(followed.statusCode).toBe(201);
    expect(followed.json()).toMatchObject({ author_id: author.id, is_following: true });
    const res = await as(t.app, reader).get('/api/my/follows');
    expect(res.statusCode).toBe(200);
    const { authors } = res.json();
    expect(authors.map((a: { username: string }) => a.username)).toEqual([author.username]);

    const unfollowed = await jsonCall(reader, 'DELETE', '/api/follows', { author_id: author.id });
    expect(unfollowed.statusCode).toBe(200);
    expect(unfollowed.json()).toMatchObject({ is_not_following: true });
    expect((await as(t.app, reader).get('/api/my/follows')).json()).toEqual({ authors: [] });
  });

  it('takes ids sent as strings ("3"), as a <select> gives them', async () => {
    const book = await createBook(t.app, author, `Strings ${Math.random()}`);
    // GenresEditor: {genre_id: e.target.value}, a string.
    const added = await jsonCall(author, 'POST', `/api/books/${book.id}/genres`, { genre_id: '3' });
    expect(added.statusCode).toBe(201);
    expect(added.json().genres).toEqual([{ id: 3, name: 'Science Fiction' }]);
    const removed = await jsonCall(author, 'DELETE', `/api/books/${book.id}/genres`, {
      genre_id: '3',
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().genres).toEqual([]);
    // BookDetailWorkspace: {book_id: bookId} from useParams, a string.
    const chapter = await jsonCall(author, 'POST', `/api/books/${book.id}/chapters`, {
      book_id: String(book.id),
      title: 'Untitled Chapter',
      content: '',
      chapter_order: 1,
    });
    expect(chapter.statusCode).toBe(201);
    const follow = await jsonCall(reader, 'POST', '/api/follows', { author_id: String(author.id) });
    expect(follow.statusCode).toBe(201);
    await jsonCall(reader, 'DELETE', '/api/follows', { author_id: String(author.id) });
  });

  it('refuses ids in other spellings in a body with a clear 400', async () => {
    const book = await createBook(t.app, author, `Spellings ${Math.random()}`);
    for (const genre_id of ['0x3', '03', '3.0', '+3', ' 3', '', true, 3.5, 0, -3, null]) {
      const res = await jsonCall(author, 'POST', `/api/books/${book.id}/genres`, { genre_id });
      expect(res.statusCode, JSON.stringify(genre_id)).toBe(400);
      expect(res.json().detail).toMatch(/genre_id/);
    }
  });

  it('deletes a book and a chapter sent with the JSON content type and no body', async () => {
    const book = await createBook(t.app, author, `Doomed ${Math.random()}`);
    const chapter = await createChapter(t.app, author, book.id);
    const deletedChapter = await jsonCall(author, 'DELETE', `/api/chapters/${chapter.id}`);
    expect(deletedChapter.statusCode).toBe(200);
    const deletedBook = await jsonCall(author, 'DELETE', `/api/books/${book.id}`);
    expect(deletedBook.statusCode).toBe(200);
    expect((await as(t.app, author).get(`/api/books/${book.id}`)).statusCode).toBe(404);
  });

  it('records history from a POST with no body and no content type', async () => {
    const book = await createBook(t.app, author, `Read ${Math.random()}`, { published: true });
    const chapter = await createChapter(t.app, author, book.id, {}, { published: true });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/books/${book.id}/chapters/${chapter.id}/history`,
      headers: { authorization: `Bearer ${reader.token}` },
    });
    expect(res.statusCode).toBe(201);
    const { read_history } = (await as(t.app, reader).get('/api/my/history')).json();
    expect(read_history.some((h: { chapter_id: number }) => h.chapter_id === chapter.id)).toBe(
      true,
    );
  });

  it('saves settings sent back as the profile the page loaded (UpdateUserInfo)', async () => {
    const loaded = (await as(t.app, author).get(`/api/authors/${author.id}`)).json();
    const res = await jsonCall(author, 'PUT', `/api/authors/${author.id}`, {
      ...loaded,
      first_name: 'Ada',
    });
    expect(res.statusCode).toBe(200);
    expect((await as(t.app, author).get(`/api/authors/${author.id}`)).json().first_name).toBe(
      'Ada',
    );
  });

  it('uploads a cover from a FormData with the field image (answer has href)', async () => {
    const book = await createBook(t.app, author, `Covered ${Math.random()}`);
    const form = multipart('image', await makeImage('png', 60, 90), 'cover.png', 'image/png');
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/books/${book.id}/cover`,
      headers: { ...form.headers, authorization: `Bearer ${author.token}` },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: res.json().href })).statusCode).toBe(200);
  });
});

describe('uploads that do not exist', () => {
  it.each(['/uploads/missing.jpg', '/uploads/0123456789abcdef0123456789abcdef.png', '/uploads/'])(
    'answers %s 404 in JSON, not the app page',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: expect.any(String), code: 'not_found' });
    },
  );

  it('answers 404 under a base path too', async () => {
    const based = await createTestApp({ BASE_PATH: '/inkwell' });
    try {
      const res = await based.app.inject({ method: 'GET', url: '/inkwell/uploads/missing.jpg' });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
      // A page is still a page.
      expect((await based.app.inject({ method: 'GET', url: '/inkwell/books' })).statusCode).toBe(
        200,
      );
    } finally {
      await based.close();
    }
  });
});
