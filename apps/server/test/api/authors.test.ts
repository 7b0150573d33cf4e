import { searchIds } from '../helpers/search.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { insertChapter } from '../helpers/rows.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const SECRET = /password|argon|\$argon2/i;

const login = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });

describe('GET /api/authors', () => {
  it('lists profiles in id order with limit and offset, without private fields', async () => {
    const users = [await signup(t.app), await signup(t.app), await signup(t.app)];
    await as(t.app, users[0]).put(`/api/authors/${users[0]!.id}`, { email: 'first@example.com' });

    const all = await as(t.app).get('/api/authors');
    expect(all.statusCode).toBe(200);
    const ids: number[] = all.json().authors.map((a: { id: number }) => a.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids).toEqual(expect.arrayContaining(users.map((u) => u.id)));
    expect(all.body).not.toMatch(SECRET);
    expect(all.body).not.toContain('first@example.com');
    expect(Object.keys(all.json().authors[0]).sort()).toEqual([
      'avatar',
      'biography',
      'facebook_link',
      'first_name',
      'id',
      'instagram_link',
      'last_name',
      'twitter_link',
      'username',
    ]);

    const page = await as(t.app).get('/api/authors?limit=2&offset=1');
    expect(page.json().authors.map((a: { id: number }) => a.id)).toEqual(ids.slice(1, 3));
  });

  it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=abc'])(
    'refuses ?%s with 400',
    async (query) => {
      const res = await as(t.app).get(`/api/authors?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation');
    },
  );
});

describe('GET /api/authors/{id}', () => {
  it('finds an author by numeric id and by username in any case', async () => {
    const user = await signup(t.app, 'Lookup.Me');
    for (const ref of [String(user.id), 'Lookup.Me', 'lookup.me', 'LOOKUP.ME']) {
      const res = await as(t.app).get(`/api/authors/${ref}`);
      expect(res.statusCode, ref).toBe(200);
      expect(res.json()).toMatchObject({ id: user.id, username: 'Lookup.Me' });
      expect(res.body).not.toMatch(SECRET);
      expect(res.json()).not.toHaveProperty('email');
    }
  });

  it('finds an all-digit username when no author has that id', async () => {
    const user = await signup(t.app, '987654');
    const res = await as(t.app).get('/api/authors/987654');
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(user.id);
  });

  it.each(['999999', 'nobody_at_all', '99999999999999999999', '-1', 'a'.repeat(100)])(
    'answers 404 for %s',
    async (ref) => {
      const res = await as(t.app).get(`/api/authors/${ref}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('not_found');
    },
  );
});

describe('PUT /api/authors/{id}', () => {
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    owner = await signup(t.app);
    other = await signup(t.app);
  });

  it('lets only the author change their profile: 401 anonymous, 403 another user, 404 unknown, 200 self', async () => {
    const body = { first_name: 'Changed' };
    expect((await as(t.app).put(`/api/authors/${owner.id}`, body)).statusCode).toBe(401);
    const byOther = await as(t.app, other).put(`/api/authors/${owner.id}`, body);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().code).toBe('forbidden');
    expect((await as(t.app, other).put('/api/authors/999999', body)).statusCode).toBe(404);
    expect((await as(t.app).get(`/api/authors/${owner.id}`)).json().first_name).toBe('');

    const bySelf = await as(t.app, owner).put(`/api/authors/${owner.username}`, body);
    expect(bySelf.statusCode).toBe(200);
    expect(bySelf.json()).toMatchObject({ id: owner.id, first_name: 'Changed' });
  });

  it('answers the account with email, stores every field and keeps names exactly as typed', async () => {
    const res = await as(t.app, owner).put(`/api/authors/${owner.id}`, {
      username: owner.username,
      password: '',
      first_name: '  Zoë <b>&</b> "Co"  ',
      last_name: "O'Brien-Ng",
      email: 'owner@example.com',
      biography: 'Hello readers & friends',
      twitter_link: 'https://twitter.com/owner',
      facebook_link: '',
      instagram_link: 'http://instagram.com/owner',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      username: owner.username,
      first_name: '  Zoë <b>&</b> "Co"  ',
      last_name: "O'Brien-Ng",
      email: 'owner@example.com',
      biography: 'Hello readers & friends',
      twitter_link: 'https://twitter.com/owner',
      facebook_link: '',
      instagram_link: 'http://instagram.com/owner',
    });
    expect(res.body).not.toMatch(SECRET);

    const profile = await as(t.app).get(`/api/authors/${owner.id}`);
    expect(profile.json()).toMatchObject({
      first_name: '  Zoë <b>&</b> "Co"  ',
      twitter_link: 'https://twitter.com/owner',
    });
    expect(profile.body).not.toContain('owner@example.com');
  });

  it('leaves fields that are absent or null unchanged', async () => {
    const res = await as(t.app, owner).put(`/api/authors/${owner.id}`, {
      biography: null,
      email: null,
      last_name: 'Kept',
    });
    expect(res.json()).toMatchObject({
      email: 'owner@example.com',
      biography: 'Hello readers & friends',
      last_name: 'Kept',
    });
  });

  it('keeps the biography as the plain text typed (as the spec client sends it), and blank as none', async () => {
    const typed = 'Tom & Jerry fan.\nWrites <short> stories & "long" ones; &lt;3';
    const res = await as(t.app, owner).put(`/api/authors/${owner.id}`, {
      biography: `  ${typed}\n`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().biography).toBe(typed);
    expect((await as(t.app).get(`/api/authors/${owner.id}`)).json().biography).toBe(typed);
    // Markup is text too: every client shows the biography as text, never as HTML.
    const markup = '<img src=x onerror=alert(1)>';
    const kept = await as(t.app, owner).put(`/api/authors/${owner.id}`, { biography: markup });
    expect(kept.json().biography).toBe(markup);

    const blank = await as(t.app, owner).put(`/api/authors/${owner.id}`, { biography: ' \n ' });
    expect(blank.json().biography).toBe('');
  });

  it.each([
    [{ email: 'not-an-email' }, /email/],
    [{ username: 'ab' }, /username/],
    [{ username: 'bad name!' }, /username/],
    [{ password: 'short' }, /password.*8/],
    [{ twitter_link: 'javascript:alert(1)' }, /twitter_link.*http/],
    [{ facebook_link: 'ftp://files.example.com' }, /facebook_link.*http/],
    [{ instagram_link: 'not a url' }, /instagram_link.*http/],
    [{ first_name: 'x'.repeat(101) }, /first_name/],
    [{ first_name: 42 }, /first_name/],
  ])('refuses %j with 400 naming the field', async (body, rule) => {
    const res = await as(t.app, owner).put(`/api/authors/${owner.id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
    expect(res.json().detail).toMatch(rule);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/authors/${owner.id}`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload: '{"first_name": ',
    });
    expect(res.statusCode).toBe(400);
  });

  it("answers 409 for another user's username in any case, and allows re-casing one's own", async () => {
    const taken = await as(t.app, owner).put(`/api/authors/${owner.id}`, {
      username: other.username.toUpperCase(),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      detail: 'That username is taken',
      code: 'conflict',
      field: 'username',
    });

    const recased = await as(t.app, owner).put(`/api/authors/${owner.id}`, {
      username: owner.username.toUpperCase(),
    });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().username).toBe(owner.username.toUpperCase());
    owner.username = owner.username.toUpperCase();
  });
});

describe('renaming and passwords', () => {
  it('logs in under the new username only, and keeps the case-insensitive uniqueness in step', async () => {
    const user = await signup(t.app, 'before_rename');
    const res = await as(t.app, user).put(`/api/authors/${user.id}`, {
      username: 'After_Rename',
      password: '',
    });
    expect(res.statusCode).toBe(200);

    expect((await login('after_rename', user.password)).statusCode).toBe(200);
    expect((await login('before_rename', user.password)).statusCode).toBe(401);
    expect((await as(t.app).get('/api/authors/after_rename')).json().id).toBe(user.id);
    expect((await as(t.app).get('/api/authors/before_rename')).statusCode).toBe(404);

    const clash = await t.app.inject({
      method: 'POST',
      url: '/api/authors',
      payload: { username: 'AFTER_RENAME', password: 'password1' },
    });
    expect(clash.statusCode).toBe(409);
    const freed = await t.app.inject({
      method: 'POST',
      url: '/api/authors',
      payload: { username: 'before_rename', password: 'password1' },
    });
    expect(freed.statusCode).toBe(201);
  });

  it('keeps the password when it is empty, re-hashes a new one and ends the other sessions', async () => {
    const user = await signup(t.app);
    await as(t.app, user).put(`/api/authors/${user.id}`, { password: '', first_name: 'Same' });
    expect((await login(user.username, user.password)).statusCode).toBe(200);

    const otherDevice = (await login(user.username, user.password)).json().access_token as string;
    const changed = await as(t.app, user).put(`/api/authors/${user.id}`, {
      password: 'a brand new secret',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).not.toMatch(SECRET);
    const stored = await t.ctx.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect(stored.password_hash).not.toContain('a brand new secret');

    expect((await login(user.username, user.password)).statusCode).toBe(401);
    expect((await login(user.username, 'a brand new secret')).statusCode).toBe(200);
    expect((await as(t.app, user).get('/api/my/reader-settings')).statusCode).toBe(200);
    expect(
      (await as(t.app, { token: otherDevice }).get('/api/my/reader-settings')).statusCode,
    ).toBe(401);
  });

  it("lets search find a book by the author's new names and username", async () => {
    const user = await signup(t.app);
    const book = await createBook(t.app, user, 'A Quiet Harbour', { published: true });
    // Book documents are indexed a moment after the write (migration 0011): searchIds waits.
    const search = (q: string) => searchIds(t, q);
    expect(await search('Zebediah')).toEqual([]);

    const res = await as(t.app, user).put(`/api/authors/${user.id}`, {
      first_name: 'Zebediah',
      last_name: 'Quillfeather',
      username: 'harbourmaster',
    });
    expect(res.statusCode).toBe(200);
    expect(await search('Zebediah')).toEqual([book.id]);
    expect(await search('Quillfeather')).toEqual([book.id]);
    expect(await search('harbourmaster')).toEqual([book.id]);
    const found = (await as(t.app).get('/api/books/search?q=Zebediah')).json().books[0];
    expect(found).toMatchObject({ first_name: 'Zebediah', author_username: 'harbourmaster' });
  });
});

describe('GET /api/authors/{id}/chapters', () => {
  it("lists the author's published chapters of published books, newest updated first, paged", async () => {
    const author = await signup(t.app);
    const published = await createBook(t.app, author, 'Published Book', { published: true });
    const draft = await createBook(t.app, author, 'Draft Book');
    const day = (n: number) => new Date(Date.UTC(2024, 0, n)).toISOString();
    const oldest = await insertChapter(t.ctx.db, published.id, {
      title: 'One',
      order: 1,
      published: true,
      updatedAt: day(1),
    });
    const newest = await insertChapter(t.ctx.db, published.id, {
      title: 'Three',
      order: 3,
      published: true,
      updatedAt: day(3),
    });
    const middle = await insertChapter(t.ctx.db, published.id, {
      title: 'Two',
      order: 2,
      published: true,
      updatedAt: day(2),
    });
    await insertChapter(t.ctx.db, published.id, {
      title: 'Draft chapter',
      order: 4,
      published: false,
      updatedAt: day(9),
    });
    await insertChapter(t.ctx.db, draft.id, {
      title: 'In a draft book',
      order: 1,
      published: true,
      updatedAt: day(9),
    });

    const res = await as(t.app).get(`/api/authors/${author.id}/chapters`);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: { id: number }) => c.id)).toEqual([newest, middle, oldest]);
    expect(res.json()[0]).toEqual({
      id: newest,
      title: 'Three',
      book_id: published.id,
      book_title: 'Published Book',
      cover: null,
      chapter_order: 3,
      created_at: day(3),
      updated_at: day(3),
    });
    expect(res.body).not.toMatch(/Draft/);

    // The author sees no drafts here either: this is the public Recent Work tab.
    const asAuthor = await as(t.app, author).get(
      `/api/authors/${author.username}/chapters?limit=10&offset=0`,
    );
    expect(asAuthor.json()).toHaveLength(3);

    const page = await as(t.app).get(`/api/authors/${author.username}/chapters?limit=2&offset=1`);
    expect(page.json().map((c: { id: number }) => c.id)).toEqual([middle, oldest]);
    expect((await as(t.app).get(`/api/authors/${author.id}/chapters?offset=3`)).json()).toEqual([]);
  });

  it('answers 404 for an unknown author and 400 for a bad page', async () => {
    expect((await as(t.app).get('/api/authors/no_such_author/chapters')).statusCode).toBe(404);
    expect((await as(t.app).get('/api/authors/1/chapters?limit=0')).statusCode).toBe(400);
  });
});

describe('GET /api/authors/{id}/books', () => {
  it("lists only the author's published books, by id or username", async () => {
    const author = await signup(t.app);
    const published = await createBook(t.app, author, 'Out There', { published: true });
    await createBook(t.app, author, 'Secret Draft');
    for (const ref of [String(author.id), author.username.toUpperCase()]) {
      for (const viewer of [null, author]) {
        const res = await as(t.app, viewer).get(`/api/authors/${ref}/books`);
        expect(res.statusCode).toBe(200);
        expect(res.json().map((b: { id: number }) => b.id)).toEqual([published.id]);
        expect(res.body).not.toContain('Secret Draft');
      }
    }
    expect((await as(t.app).get('/api/authors/999999/books')).statusCode).toBe(404);
  });
});

describe('reader settings', () => {
  it('requires a session', async () => {
    expect((await as(t.app).get('/api/my/reader-settings')).statusCode).toBe(401);
    expect((await as(t.app).put('/api/my/reader-settings', { font_size: 20 })).statusCode).toBe(
      401,
    );
  });

  it('answers defaults, merges partial changes, and keeps them per user', async () => {
    const reader = await signup(t.app);
    const other = await signup(t.app);
    const defaults = { font_size: 18, line_width: 'medium', theme: 'light' };
    expect((await as(t.app, reader).get('/api/my/reader-settings')).json()).toEqual(defaults);

    const first = await as(t.app, reader).put('/api/my/reader-settings', {
      font_size: 24,
      theme: 'sepia',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ font_size: 24, line_width: 'medium', theme: 'sepia' });
    const second = await as(t.app, reader).put('/api/my/reader-settings', { line_width: 'wide' });
    expect(second.json()).toEqual({ font_size: 24, line_width: 'wide', theme: 'sepia' });
    expect((await as(t.app, reader).get('/api/my/reader-settings')).json()).toEqual(second.json());
    expect((await as(t.app, other).get('/api/my/reader-settings')).json()).toEqual(defaults);
  });

  it('falls back to the defaults when the stored value is unreadable', async () => {
    const reader = await signup(t.app);
    await t.ctx.db
      .updateTable('users')
      .set({ reader_settings: '{not json' })
      .where('id', '=', reader.id)
      .execute();
    expect((await as(t.app, reader).get('/api/my/reader-settings')).json()).toMatchObject({
      font_size: 18,
    });
    expect(
      (await as(t.app, reader).put('/api/my/reader-settings', { theme: 'dark' })).json(),
    ).toEqual({
      font_size: 18,
      line_width: 'medium',
      theme: 'dark',
    });
  });

  it.each([
    [{ font_size: 11 }, /font_size/],
    [{ font_size: 33 }, /font_size/],
    [{ font_size: 18.5 }, /font_size/],
    [{ font_size: '18' }, /font_size/],
    [{ line_width: 'huge' }, /line_width.*narrow, medium, wide/],
    [{ theme: 'neon' }, /theme.*light, dark, sepia/],
  ])('refuses %j with 400', async (body, rule) => {
    const reader = await signup(t.app);
    const res = await as(t.app, reader).put('/api/my/reader-settings', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(rule);
    expect((await as(t.app, reader).get('/api/my/reader-settings')).json().font_size).toBe(18);
  });
});

describe('no secrets in answers', () => {
  it('never answers a password or its hash from any author or account call', async () => {
    const user = await signup(t.app);
    await createBook(t.app, user, 'Leak Check', { published: true });
    const answers = await Promise.all([
      as(t.app).get('/api/authors'),
      as(t.app).get(`/api/authors/${user.id}`),
      as(t.app, user).put(`/api/authors/${user.id}`, {
        password: 'another password',
        first_name: 'Pat',
        email: 'p@example.com',
      }),
      as(t.app, user).get('/token'),
      as(t.app).get(`/api/authors/${user.id}/books`),
      as(t.app).get(`/api/authors/${user.id}/chapters`),
    ]);
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(SECRET);
    }
  });
});
