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
import { parseXml, textOf } from '../helpers/xml.ts';

let t: TestApp;
let author: TestUser;
let second: TestUser;
let unfollowed: TestUser;
let reader: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  second = await signup(t.app);
  unfollowed = await signup(t.app);
  reader = await signup(t.app);
  await as(t.app, author).put(`/api/authors/${author.id}`, {
    first_name: 'Ada',
    last_name: 'Quill',
  });
});
afterAll(() => t.close());

type Node = Record<string, unknown[]>;
type Entry = Node;

async function fetchFeed(url: string, who?: TestUser) {
  const res = await as(t.app, who).get(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
  const doc = parseXml(res.body, url) as { feed: Node[] };
  const feed = doc.feed[0]!;
  expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
  // The elements RFC 4287 requires of a feed and of each entry.
  expect(textOf(feed.id)).not.toBe('');
  expect(textOf(feed.title)).not.toBe('');
  expect(Number.isNaN(Date.parse(textOf(feed.updated)))).toBe(false);
  const entries = (feed.entry ?? []) as Entry[];
  for (const entry of entries) {
    for (const field of ['id', 'title', 'updated', 'published', 'link', 'author', 'summary']) {
      expect(entry[field], field).toBeDefined();
    }
    expect(Number.isNaN(Date.parse(textOf(entry.updated)))).toBe(false);
  }
  return { feed, entries, res };
}

const titles = (entries: Entry[]) => entries.map((e) => textOf(e.title));
const linkOf = (node: Node, rel: string) =>
  (node.link as Array<Record<string, string>>).find((l) => l['@_rel'] === rel)?.['@_href'];

let counter = 0;
async function publishedBook(
  owner: TestUser,
  chapterTitles: string[],
  options: { draftBook?: boolean } = {},
) {
  const book = await createBook(t.app, owner, `Feed book ${++counter}`, {
    published: !options.draftBook,
    summary: 'About it',
  });
  const chapters = [];
  for (const title of chapterTitles) {
    chapters.push(
      await createChapter(
        t.app,
        owner,
        book.id,
        { title, content: `<p>${title} begins here &amp; goes on.</p>` },
        { published: true },
      ),
    );
  }
  const draft = await createChapter(t.app, owner, book.id, {
    title: `${book.title} draft`,
    content: '<p>unfinished</p>',
  });
  return { book, chapters, draft };
}

describe('book feed', () => {
  it('lists the published chapters of a published book, newest first, as valid Atom', async () => {
    const { book, chapters } = await publishedBook(author, ['First <light> & "dawn"', 'Second']);
    const { feed, entries } = await fetchFeed(`/api/books/${book.id}/feed.atom`);
    expect(textOf(feed.title)).toBe(book.title);
    expect(textOf(feed.subtitle)).toBe('About it');
    expect(textOf(feed.id)).toBe(`urn:inkwell:book:${book.id}`);
    expect(linkOf(feed, 'self')).toBe(`http://localhost:80/api/books/${book.id}/feed.atom`);
    expect(linkOf(feed, 'alternate')).toBe(`http://localhost:80/books/${book.id}`);
    expect(titles(entries)).toEqual(['Second', 'First <light> & "dawn"']);
    const [newest] = entries;
    expect(textOf(newest!.id)).toBe(`urn:inkwell:chapter:${chapters[1]!.id}`);
    expect(linkOf(newest!, 'alternate')).toBe(
      `http://localhost:80/books/${book.id}/chapters/${chapters[1]!.id}`,
    );
    expect(textOf((newest!.author as Node[])[0]!.name)).toBe('Ada Quill');
    expect(textOf(newest!.summary)).toBe('Second begins here & goes on.');
    expect(textOf(feed.updated)).toBe(textOf(newest!.updated));
  });

  it('never shows a draft: not a draft chapter, not a draft book (even to its author)', async () => {
    const { book, draft } = await publishedBook(author, ['Visible']);
    const { entries } = await fetchFeed(`/api/books/${book.id}/feed.atom`, author);
    expect(titles(entries)).toEqual(['Visible']);
    expect(titles(entries)).not.toContain(draft.title);
    const hidden = await publishedBook(author, ['Published chapter of a draft book'], {
      draftBook: true,
    });
    expect((await as(t.app).get(`/api/books/${hidden.book.id}/feed.atom`)).statusCode).toBe(404);
    expect((await as(t.app, author).get(`/api/books/${hidden.book.id}/feed.atom`)).statusCode).toBe(
      404,
    );
    expect((await as(t.app).get('/api/books/999999/feed.atom')).statusCode).toBe(404);
    expect((await as(t.app).get('/api/books/abc/feed.atom')).statusCode).toBe(404);
  });

  it('uses the proxy-given scheme and host for links when the proxy is trusted', async () => {
    const behindProxy = await createTestApp({ TRUST_PROXY: 'loopback', BASE_PATH: '/ink' });
    try {
      const res = await behindProxy.app.inject({
        method: 'POST',
        url: '/ink/api/authors',
        payload: { username: 'proxied', password: 'correct horse battery' },
      });
      const token = res.json().access_token as string;
      const auth = { authorization: `Bearer ${token}` };
      const book = (
        await behindProxy.app.inject({
          method: 'POST',
          url: '/ink/api/books',
          headers: auth,
          payload: { title: 'Proxied' },
        })
      ).json();
      await behindProxy.app.inject({
        method: 'PUT',
        url: `/ink/api/books/${book.id}`,
        headers: auth,
        payload: { title: 'Proxied', is_published: true },
      });
      const feed = await behindProxy.app.inject({
        method: 'GET',
        url: `/ink/api/books/${book.id}/feed.atom`,
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'books.example' },
      });
      expect(feed.statusCode).toBe(200);
      expect(feed.body).toContain(`href="https://books.example/ink/books/${book.id}"`);
    } finally {
      await behindProxy.close();
    }
  });
});

describe('links and caching', () => {
  it('builds links from PUBLIC_URL whatever the Host, and only then lets shared caches keep a feed', async () => {
    const { book } = await publishedBook(author, ['Linked']);
    const visitor = await as(t.app).get(`/api/books/${book.id}/feed.atom`);
    expect(visitor.headers['cache-control']).toBe('private, max-age=300');

    const configured = await createTestApp(
      { PUBLIC_URL: 'https://books.example/', BASE_PATH: '/ink' },
      { database: t.database },
    );
    try {
      const feed = await configured.app.inject({
        method: 'GET',
        url: `/ink/api/books/${book.id}/feed.atom`,
        headers: { host: 'evil.example' },
      });
      expect(feed.statusCode).toBe(200);
      expect(feed.headers['cache-control']).toBe('public, max-age=300');
      expect(feed.body).toContain(`href="https://books.example/ink/books/${book.id}"`);
      expect(feed.body).not.toContain('evil.example');
    } finally {
      await configured.close();
    }
  });
});

describe('author feed', () => {
  it("lists new chapters across the author's published books, by id or username", async () => {
    const a = await publishedBook(second, ['A one', 'A two']);
    const b = await publishedBook(second, ['B one']);
    const hidden = await publishedBook(second, ['In a draft book'], { draftBook: true });
    for (const ref of [String(second.id), second.username]) {
      const { feed, entries } = await fetchFeed(`/api/authors/${ref}/feed.atom`);
      expect(textOf(feed.title)).toBe(`${second.username} on Inkwell`);
      expect(titles(entries)).toEqual([
        `${b.book.title}: B one`,
        `${a.book.title}: A two`,
        `${a.book.title}: A one`,
      ]);
      expect(titles(entries).join()).not.toContain(hidden.book.title);
      expect(titles(entries).join()).not.toContain('draft');
    }
    expect((await as(t.app).get('/api/authors/nobody-here/feed.atom')).statusCode).toBe(404);
  });
});

describe('private reader feed', () => {
  it('refuses visitors on the token calls', async () => {
    expect((await as(t.app).get('/api/my/feed-token')).statusCode).toBe(401);
    expect((await as(t.app).post('/api/my/feed-token')).statusCode).toBe(401);
    expect((await as(t.app).delete('/api/my/feed-token')).statusCode).toBe(401);
  });

  it('lists new chapters from everyone the reader follows, through a secret, revocable URL', async () => {
    const followed = await publishedBook(author, ['Followed chapter']);
    const alsoFollowed = await publishedBook(second, ['Second followed chapter']);
    const notFollowed = await publishedBook(unfollowed, ['Not followed chapter']);
    await as(t.app, reader).post('/api/follows', { author_id: author.id });
    await as(t.app, reader).post('/api/follows', { author_id: second.id });

    expect((await as(t.app, reader).get('/api/my/feed-token')).json()).toEqual({
      active: false,
      created_at: null,
    });
    const created = await as(t.app, reader).post('/api/my/feed-token');
    expect(created.statusCode).toBe(201);
    const { url } = created.json();
    expect(url).toMatch(/^http:\/\/localhost:80\/api\/feeds\/[A-Za-z0-9_-]{43}\.atom$/);
    expect((await as(t.app, reader).get('/api/my/feed-token')).json()).toEqual({
      active: true,
      created_at: created.json().created_at,
    });

    // A feed reader carries no session: the secret in the URL is the only credential.
    const path = new URL(url).pathname;
    const { feed, entries, res } = await fetchFeed(path);
    expect(res.headers['cache-control']).toBe('private, max-age=300');
    expect(linkOf(feed, 'self')).toBe(url);
    const listed = titles(entries);
    expect(listed).toContain(`${followed.book.title}: Followed chapter`);
    expect(listed).toContain(`${alsoFollowed.book.title}: Second followed chapter`);
    expect(listed.join()).not.toContain(notFollowed.book.title);
    expect(listed.join()).not.toContain('draft');

    // Rotating replaces the address; revoking ends it.
    const rotated = (await as(t.app, reader).post('/api/my/feed-token')).json().url;
    expect(rotated).not.toBe(url);
    expect((await as(t.app).get(path)).statusCode).toBe(404);
    expect((await as(t.app).get(new URL(rotated).pathname)).statusCode).toBe(200);
    expect((await as(t.app, reader).delete('/api/my/feed-token')).statusCode).toBe(200);
    expect((await as(t.app).get(new URL(rotated).pathname)).statusCode).toBe(404);
    expect((await as(t.app, reader).get('/api/my/feed-token')).json().active).toBe(false);
  });

  it('keeps tokens per reader and answers 404 for anything that is not a live token', async () => {
    const mine = (await as(t.app, reader).post('/api/my/feed-token')).json().url;
    const theirs = (await as(t.app, second).post('/api/my/feed-token')).json().url;
    // Another reader revoking their own feed leaves mine alone.
    await as(t.app, second).delete('/api/my/feed-token');
    expect((await as(t.app).get(new URL(mine).pathname)).statusCode).toBe(200);
    expect((await as(t.app).get(new URL(theirs).pathname)).statusCode).toBe(404);
    expect((await as(t.app).get('/api/feeds/short.atom')).statusCode).toBe(404);
    expect((await as(t.app).get(`/api/feeds/${'A'.repeat(43)}.atom`)).statusCode).toBe(404);
  });
});
