import { FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { listFilterFor } from '../../src/modules/discovery/discovery.service.ts';
import { releaseDueChapters } from '../../src/modules/releases/releases.service.ts';
import { createChapter } from '../helpers/chapters.ts';

/** Issue 21: tags, warnings, rating, status and words on books; filters; saved exclusions. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let titles = 0;
const put = (who: TestUser, bookId: number, body: Record<string, unknown>) =>
  as(t.app, who).put(`/api/books/${bookId}`, body);
const get = (url: string, who?: TestUser) => as(t.app, who).get(url);
const ids = (res: { json(): unknown }) => (res.json() as { id: number }[]).map((b) => b.id);

/** A unique word for this test run, so lists of one test do not see another's books. */
let words = 0;
const unique = (stem: string) => `${stem}${process.pid}x${++words}`;

async function publishedBook(author: TestUser, fields: Record<string, unknown> = {}) {
  const book = await createBook(t.app, author, `Discovery book ${++titles}`, { published: true });
  if (Object.keys(fields).length === 0) return book;
  const res = await put(author, book.id, fields);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('what a book carries', () => {
  it('answers the defaults on a new book, and every field on every kind of book answer', async () => {
    const author = await signup(t.app);
    const created = (await as(t.app, author).post('/api/books', { title: 'Fresh' })).json();
    expect(created).toMatchObject({
      tags: [],
      warnings: [],
      rating: 'general',
      status: 'ongoing',
      words: 0,
    });
    const book = await publishedBook(author, {
      tags: ['  Slow   Burn ', 'found family'],
      warnings: ['self-harm', 'graphic-violence'],
      rating: 'teen',
      status: 'hiatus',
    });
    const expected = {
      tags: ['Slow Burn', 'found family'],
      // The fixed list's order, whatever the order sent.
      warnings: ['graphic-violence', 'self-harm'],
      rating: 'teen',
      status: 'hiatus',
    };
    expect(book).toMatchObject(expected);
    expect((await get(`/api/books/${book.id}`)).json()).toMatchObject(expected);
    const mine = (await get('/api/my/books', author)).json() as { id: number }[];
    expect(mine.find((b) => b.id === book.id)).toMatchObject(expected);
    const listed = (await get('/api/books?limit=100')).json() as { id: number }[];
    expect(listed.find((b) => b.id === book.id)).toMatchObject(expected);
    const byAuthor = (await get(`/api/authors/${author.id}/books`)).json() as { id: number }[];
    expect(byAuthor.find((b) => b.id === book.id)).toMatchObject(expected);
  });

  it('keeps the spec three fields working alone, and leaves the new ones as they were', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author, { tags: ['Kept'], rating: 'mature' });
    const res = await put(author, book.id, { title: 'Renamed', summary: 's', is_published: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Renamed', tags: ['Kept'], rating: 'mature' });
  });

  it('keeps the first spelling used on the site for display', async () => {
    const author = await signup(t.app);
    const spelled = unique('FirstSpelling');
    await publishedBook(author, { tags: [spelled] });
    const later = await publishedBook(author, { tags: [spelled.toUpperCase()] });
    expect(later.tags).toEqual([spelled]);
  });

  it('lets a spelling go once no book uses it, so a typo can be corrected', async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const spelled = unique('Sci fi');
    const book = await publishedBook(author, { tags: [spelled] });
    // Another book using the tag keeps its spelling.
    const theirs = await publishedBook(other, { tags: [spelled] });
    const corrected = spelled.replace('Sci fi', 'Sci Fi');
    expect((await put(author, book.id, { tags: [corrected] })).json().tags).toEqual([spelled]);
    // Once the author's book is the only one, correcting it there takes.
    expect((await put(other, theirs.id, { tags: [] })).statusCode).toBe(200);
    expect((await put(author, book.id, { tags: [corrected] })).json().tags).toEqual([corrected]);
    // A deleted book lets its tags go too.
    expect((await as(t.app, author).delete(`/api/books/${book.id}`, {})).statusCode).toBeLessThan(
      300,
    );
    const again = await publishedBook(other, { tags: [spelled.toUpperCase()] });
    expect(again.tags).toEqual([spelled.toUpperCase()]);
    const unused = await t.ctx.db
      .selectFrom('tags')
      .select('name')
      .where('key', '=', spelled.toLowerCase())
      .execute();
    expect(unused).toEqual([{ name: spelled.toUpperCase() }]);
  });

  it('saves the same tags on several books at once, in any order, and each book keeps them', async () => {
    const authors = await Promise.all([signup(t.app), signup(t.app), signup(t.app)]);
    const shelf = await Promise.all(authors.map((a) => publishedBook(a)));
    const shared = Array.from({ length: 12 }, (_, i) => unique(`Shared ${i} `));
    // Each round, every book sends the shared tags in its own order while the others do: on
    // PostgreSQL, tags taken row by row in opposite orders would deadlock one of the saves.
    for (let round = 0; round < 6; round++) {
      const orders = shelf.map((_, i) =>
        i % 2 === 0 ? [...shared].reverse() : [...shared.slice(i), ...shared.slice(0, i)],
      );
      const answers = await Promise.all(
        shelf.map((book, i) => put(authors[i]!, book.id, { tags: orders[i]!.slice(round % 3) })),
      );
      for (const [i, res] of answers.entries()) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().tags).toEqual(orders[i]!.slice(round % 3));
      }
    }
  });

  it('lets a book be deleted while its tags are being saved, without an error', async () => {
    const author = await signup(t.app);
    const tags = [unique('Going'), unique('Gone')];
    for (let round = 0; round < 6; round++) {
      const book = await publishedBook(author, { tags });
      const [saved, deleted] = await Promise.all([
        put(author, book.id, { tags: [...tags].reverse() }),
        as(t.app, author).delete(`/api/books/${book.id}`, {}),
      ]);
      expect([200, 404], saved.body).toContain(saved.statusCode);
      expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    }
  });

  it('refuses bad tags, warnings, ratings and statuses with 400 naming the field', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const cases: [Record<string, unknown>, string][] = [
      [{ tags: ['   '] }, 'tags'],
      [{ tags: ['x'.repeat(51)] }, 'tags'],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
      [{ tags: ['Same', ' same '] }, 'tags'],
      // Every filter's list splits on commas, so a tag holding one could never be asked for.
      [{ tags: ['slow, burn'] }, 'comma'],
      [{ warnings: ['spoilers'] }, 'warnings'],
      [{ rating: 'adult' }, 'rating'],
      [{ status: 'paused' }, 'status'],
    ];
    for (const [body, field] of cases) {
      const res = await put(author, book.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('validation');
      expect(res.json().detail).toContain(field);
    }
    // Twenty tags of fifty characters are fine.
    const most = Array.from({ length: 20 }, (_, i) => `${i}`.padEnd(50, 'x'));
    expect((await put(author, book.id, { tags: most })).statusCode).toBe(200);
  });

  it('counts a tag in characters, not UTF-16 units: fifty emoji are a tag, fifty-one are not', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const fifty = '🐉'.repeat(50);
    const res = await put(author, book.id, { tags: [fifty] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tags).toEqual([fifty]);
    const tooLong = await put(author, book.id, { tags: ['🐉'.repeat(51)] });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toContain('tags');
    // The tag's whole name is a prefix autocomplete takes, and a filter.
    const suggested = await get(`/api/tags?q=${encodeURIComponent(fifty)}`);
    expect(suggested.statusCode, suggested.body).toBe(200);
    expect(suggested.json().tags).toEqual([{ name: fifty, books: 1 }]);
    const longer = await get(`/api/tags?q=${encodeURIComponent('🐉'.repeat(51))}`);
    expect(longer.statusCode).toBe(400);
    expect(longer.json().detail).toContain('q');
    const listed = await get(`/api/books?tags=${encodeURIComponent(fifty)}`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().map((b: { id: number }) => b.id)).toEqual([book.id]);
  });

  it("never lets anyone else set a book's tags", async () => {
    const author = await signup(t.app);
    const other = await signup(t.app);
    const book = await publishedBook(author, { tags: ['Mine'] });
    expect((await put(other, book.id, { tags: ['Theirs'] })).statusCode).toBe(403);
    expect((await as(t.app).put(`/api/books/${book.id}`, { tags: ['x'] })).statusCode).toBe(401);
    expect((await get(`/api/books/${book.id}`)).json().tags).toEqual(['Mine']);
  });

  it('counts the words of published chapters only, through publish, edit, unpublish and delete', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const words = async () => (await get(`/api/books/${book.id}`, author)).json().words;
    const one = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'One', content: '<p>a b c</p>' },
      { published: true },
    );
    const two = await createChapter(t.app, author, book.id, {
      title: 'Two',
      content: '<p>d e</p>',
    });
    expect(await words()).toBe(3);
    const chapterUrl = (id: number) => `/api/books/${book.id}/chapters/${id}`;
    await as(t.app, author).put(chapterUrl(two.id), { is_published: true });
    expect(await words()).toBe(5);
    await as(t.app, author).put(chapterUrl(one.id), { content: '<p>a b c d e f</p>' });
    expect(await words()).toBe(8);
    await as(t.app, author).put(chapterUrl(one.id), { is_published: false });
    expect(await words()).toBe(2);
    expect((await as(t.app, author).delete(`/api/chapters/${two.id}`, {})).statusCode).toBe(200);
    expect(await words()).toBe(0);
  });
  it('counts the words of a chapter its scheduled release publishes', async () => {
    const author = await signup(t.app);
    const book = await publishedBook(author);
    const chapter = await createChapter(t.app, author, book.id, {
      title: 'Later',
      content: '<p>one two three four</p>',
    });
    const inAMinute = new Date(Date.now() + 60_000).toISOString();
    const scheduled = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      publish_at: inAMinute,
    });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect((await get(`/api/books/${book.id}`, author)).json().words).toBe(0);
    await releaseDueChapters(t.ctx, new Date(Date.now() + 120_000).toISOString());
    expect((await get(`/api/books/${book.id}`, author)).json().words).toBe(4);
  });
});

describe('warnings and tag suggestions', () => {
  it('lists the fixed warnings', async () => {
    const res = await get('/api/warnings');
    expect(res.statusCode).toBe(200);
    const names = (res.json().warnings as { id: string; name: string }[]).map((w) => w.id);
    for (const id of [
      'graphic-violence',
      'major-character-death',
      'sexual-content',
      'self-harm',
      'abuse',
      'no-warnings',
    ])
      expect(names).toContain(id);
  });

  it('suggests tags of published books by prefix, most used first, drafts not counted', async () => {
    const author = await signup(t.app);
    const prefix = unique('Pfx');
    await publishedBook(author, { tags: [`${prefix} rare`, `${prefix} common`] });
    await publishedBook(author, { tags: [`${prefix} common`] });
    const draft = await createBook(t.app, author, `Draft ${++titles}`);
    await put(author, draft.id, { tags: [`${prefix} draftonly`, `${prefix} rare`] });
    const res = await get(`/api/tags?q=${encodeURIComponent(prefix.toLowerCase())}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().tags).toEqual([
      { name: `${prefix} common`, books: 2 },
      { name: `${prefix} rare`, books: 1 },
    ]);
  });

  it('suggests tags used equally often in the order of their first use, on either engine', async () => {
    const author = await signup(t.app);
    const prefix = unique('Tie').toLowerCase();
    // By name the second sorts first on both engines (by bytes, and by a case-blind collation).
    await publishedBook(author, { tags: [`${prefix} zebra`] });
    await publishedBook(author, { tags: [`${prefix.toUpperCase()} aardvark`] });
    const res = await get(`/api/tags?q=${encodeURIComponent(prefix)}`);
    expect(res.json().tags.map((tag: { name: string }) => tag.name)).toEqual([
      `${prefix} zebra`,
      `${prefix.toUpperCase()} aardvark`,
    ]);
  });

  it('suggests by a prefix holding an emoji (characters, not UTF-16 units)', async () => {
    const author = await signup(t.app);
    const prefix = `🐉${unique('wyrm').toLowerCase()}`;
    await publishedBook(author, { tags: [`${prefix} riders`] });
    const res = await get(`/api/tags?q=${encodeURIComponent(prefix)}`);
    expect(res.json().tags).toEqual([{ name: `${prefix} riders`, books: 1 }]);
  });
});

describe('filters on GET /api/books', () => {
  it('filters by tags (all of them), excluded tags and warnings, rating, status, genre and words', async () => {
    const author = await signup(t.app);
    const tag = unique('Tag');
    const a = await publishedBook(author, {
      tags: [tag, 'Alpha'],
      rating: 'teen',
      status: 'completed',
    });
    const b = await publishedBook(author, { tags: [tag], warnings: ['abuse'], rating: 'mature' });
    const c = await publishedBook(author, { tags: [tag, 'Beta'] });
    await createChapter(
      t.app,
      author,
      c.id,
      { title: 'c', content: '<p>one two three four</p>' },
      { published: true },
    );
    const list = async (query: string) => {
      const res = await get(`/api/books?limit=100&tags=${encodeURIComponent(tag)}&${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return ids(res).sort();
    };
    expect(await list('')).toEqual([a.id, b.id, c.id].sort());
    expect(await list(`tags=${tag.toUpperCase()},alpha`)).toEqual([a.id]);
    expect(await list('exclude_tags=ALPHA,beta')).toEqual([b.id]);
    expect(await list('exclude_warnings=abuse')).toEqual([a.id, c.id].sort());
    expect(await list('rating=general,teen')).toEqual([a.id, c.id].sort());
    expect(await list('status=completed')).toEqual([a.id]);
    expect(await list('min_words=4')).toEqual([c.id]);
    expect(await list('tags=no-such-tag-anywhere')).toEqual([]);
    expect(await list('sort=words')).toHaveLength(3);
    const top = await get(`/api/books?limit=1&sort=words&tags=${tag}`);
    expect(ids(top)).toEqual([c.id]);
  });

  it('sorts by followers, by the newest chapter and by readers, newer book first on ties', async () => {
    const author = await signup(t.app);
    const fan = await signup(t.app);
    const tag = unique('Sorted');
    const older = await publishedBook(author, { tags: [tag] });
    const newer = await publishedBook(author, { tags: [tag] });
    // Signed in: a visitor's list may be the answer cache's, which follows and reads do not empty.
    const order = async (sort: string) =>
      ids(await get(`/api/books?tags=${tag}&sort=${sort}`, fan));
    expect(await order('new')).toEqual([newer.id, older.id]);
    expect(await order('followers')).toEqual([newer.id, older.id]);
    await as(t.app, fan).post(`/api/books/${older.id}/follow`);
    expect(await order('followers')).toEqual([older.id, newer.id]);
    await createChapter(t.app, author, newer.id, { title: 'n' }, { published: true });
    const chapter = await createChapter(
      t.app,
      author,
      older.id,
      { title: 'o' },
      { published: true },
    );
    expect(await order('updated')).toEqual([older.id, newer.id]);
    await as(t.app, fan).post(`/api/books/${newer.id}/chapters/${chapter.id - 1}/history`);
    expect(await order('popular')).toEqual([newer.id, older.id]);
    await as(t.app, fan).delete(`/api/books/${older.id}/follow`);
    expect(await order('followers')).toEqual([newer.id, older.id]);
  });

  it('answers [] for a tag the site does not know without walking the list', async () => {
    const author = await signup(t.app);
    const known = unique('Known');
    await publishedBook(author, { tags: [known] });
    const res = await get(`/api/books?tags=${known},${unique('nosuch')}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    // The tag is looked up first: the list's condition is then a constant false, which both
    // engines answer without reading a book (PostgreSQL's one-time filter, SQLite's constant term).
    expect((await listFilterFor(t.ctx, null, { tags: [unique('nosuch')] })).noSuchTag).toBe(true);
    expect((await listFilterFor(t.ctx, null, { tags: [known.toUpperCase()] })).noSuchTag).toBe(
      false,
    );
  });

  it('answers 400 naming the parameter for bad values', async () => {
    for (const [query, name] of [
      ['rating=adult', 'rating'],
      ['status=paused', 'status'],
      ['exclude_warnings=spoilers', 'exclude_warnings'],
      ['sort=random', 'sort'],
      ['min_words=-1', 'min_words'],
      ['min_words=many', 'min_words'],
      [`tags=${'x'.repeat(51)}`, 'tags'],
      ['tags=a%00b', 'tags'],
    ]) {
      const res = await get(`/api/books?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().detail, query).toContain(name);
    }
    expect((await get('/api/books/search?q=a&sort=random')).json().detail).toContain('sort');
  });
});

describe('saved exclusions', () => {
  it('are kept per reader, with muted authors by username, and unknown usernames refused', async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    expect((await get('/api/my/filters', reader)).json()).toEqual({
      exclude_tags: [],
      exclude_warnings: [],
      exclude_ratings: [],
      muted_authors: [],
    });
    const res = await as(t.app, reader).put('/api/my/filters', {
      exclude_tags: [' Gore ', 'gore'],
      exclude_warnings: ['abuse'],
      muted_authors: [author.username.toUpperCase()],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      exclude_tags: ['Gore'],
      exclude_warnings: ['abuse'],
      exclude_ratings: [],
      muted_authors: [author.username],
    });
    // A list left out stays as it was.
    await as(t.app, reader).put('/api/my/filters', { exclude_ratings: ['explicit'] });
    expect((await get('/api/my/filters', reader)).json()).toMatchObject({
      exclude_tags: ['Gore'],
      exclude_ratings: ['explicit'],
    });
    const unknown = await as(t.app, reader).put('/api/my/filters', {
      muted_authors: ['nobody-by-this-name'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().detail).toContain('nobody-by-this-name');
    expect((await get('/api/my/filters')).statusCode).toBe(401);
  });

  it('keep both of two saves of different lists made at once (two tabs, or API clients)', async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    const [tags, muted] = await Promise.all([
      as(t.app, reader).put('/api/my/filters', { exclude_tags: ['Gore'] }),
      as(t.app, reader).put('/api/my/filters', { muted_authors: [author.username] }),
    ]);
    expect([tags.statusCode, muted.statusCode]).toEqual([200, 200]);
    expect((await get('/api/my/filters', reader)).json()).toEqual({
      exclude_tags: ['Gore'],
      exclude_warnings: [],
      exclude_ratings: [],
      muted_authors: [author.username],
    });
  });

  it('apply to a signed-in reader with a hidden count, never to others, and not with filters=off', async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    const tag = unique('Saved');
    const shown = await publishedBook(author, { tags: [tag] });
    const gory = await publishedBook(author, { tags: [tag, unique('Gore')] });
    const rated = await publishedBook(author, { tags: [tag], rating: 'explicit' });
    await as(t.app, reader).put('/api/my/filters', {
      exclude_tags: [gory.tags[1]],
      exclude_ratings: ['explicit'],
    });
    const url = `/api/books?limit=100&tags=${tag}`;
    // A visitor asks first, so the answer cache holds the unfiltered list.
    const visitor = await get(url);
    expect(ids(visitor).sort()).toEqual([shown.id, gory.id, rated.id].sort());
    expect(visitor.headers[FILTERED_HIDDEN_HEADER]).toBeUndefined();
    const mine = await get(url, reader);
    expect(ids(mine)).toEqual([shown.id]);
    expect(mine.headers[FILTERED_HIDDEN_HEADER]).toBe('2');
    expect(mine.headers['cache-control']).toContain('private');
    const again = await get(url);
    expect(ids(again)).toHaveLength(3);
    const off = await get(`${url}&filters=off`, reader);
    expect(ids(off)).toHaveLength(3);
    expect(off.headers[FILTERED_HIDDEN_HEADER]).toBeUndefined();
  });
});

describe('the hidden count, revalidated', () => {
  it('changes the ETag when only the count changed, so a 304 never keeps an old count', async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    const tag = unique('Revalidated');
    await publishedBook(author, { tags: [tag], rating: 'explicit' });
    const newest = await publishedBook(author, { tags: [tag] });
    await as(t.app, reader).put('/api/my/filters', { exclude_ratings: ['explicit'] });
    const url = `/api/books?limit=1&tags=${tag}`;
    const revalidate = (etag?: string) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: {
          authorization: `Bearer ${reader.token}`,
          ...(etag !== undefined && { 'if-none-match': etag }),
        },
      });
    const filtered = await revalidate();
    expect(ids(filtered)).toEqual([newest.id]);
    expect(filtered.headers[FILTERED_HIDDEN_HEADER]).toBe('1');
    const etag = String(filtered.headers.etag);
    expect((await revalidate(etag)).statusCode).toBe(304);
    // The same first page, but nothing hidden now: the browser must not keep "1 book hidden".
    await as(t.app, reader).put('/api/my/filters', { exclude_ratings: [] });
    const unfiltered = await revalidate(etag);
    expect(unfiltered.statusCode).toBe(200);
    expect(ids(unfiltered)).toEqual([newest.id]);
    expect(unfiltered.headers[FILTERED_HIDDEN_HEADER]).toBeUndefined();
  });
});

describe('the hidden count of a capped list', () => {
  it("counts the excluded books among the list's unfiltered top N, not the whole library", async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    const banned = unique('Banned');
    const old = await publishedBook(author, { tags: [banned] });
    await as(t.app, reader).put('/api/my/filters', { exclude_tags: [banned] });
    const hidden = async (url: string) => (await get(url, reader)).headers[FILTERED_HIDDEN_HEADER];
    // Two newer books fill recent's top two: the older excluded one was never among them.
    const newer = [await publishedBook(author), await publishedBook(author)];
    expect(await hidden('/api/recent/books?limit=2')).toBeUndefined();
    await publishedBook(author, { tags: [banned] });
    expect(await hidden('/api/recent/books?limit=2')).toBe('1');
    expect(await hidden('/api/recent/books?limit=3')).toBe('1');
    // Popular's top one is a book read by many; the excluded book read by one is below it.
    const readers = async (id: number, n: number) =>
      t.ctx.db.updateTable('books').set({ reader_count: n }).where('id', '=', id).execute();
    await readers(newer[0]!.id, 1_000_000);
    await readers(old.id, 1);
    expect(await hidden('/api/popular/books?limit=1')).toBeUndefined();
    await readers(old.id, 2_000_000);
    expect(await hidden('/api/popular/books?limit=1')).toBe('1');
    await readers(old.id, 0);
    await readers(newer[0]!.id, 0);
  });

  it('is said on the first page of a paged list only (the web reads that one)', async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    const tag = unique('Paged');
    for (let i = 0; i < 3; i++) await publishedBook(author, { tags: [tag] });
    await publishedBook(author, { tags: [tag], rating: 'explicit' });
    await as(t.app, reader).put('/api/my/filters', { exclude_ratings: ['explicit'] });
    const hidden = async (offset: number) =>
      (await get(`/api/books?tags=${tag}&limit=1&offset=${offset}`, reader)).headers[
        FILTERED_HIDDEN_HEADER
      ];
    expect(await hidden(0)).toBe('1');
    expect(await hidden(1)).toBeUndefined();
  });
});

describe("saved exclusions in the reader's private feed", () => {
  it('leave out the chapters of excluded books', async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    const kept = await publishedBook(author);
    const warned = await publishedBook(author, { warnings: ['abuse'] });
    for (const book of [kept, warned])
      await createChapter(
        t.app,
        author,
        book.id,
        { title: `Chapter of ${book.title}` },
        { published: true },
      );
    await as(t.app, reader).post('/api/follows', { author_id: author.id });
    const { url } = (await as(t.app, reader).post('/api/my/feed-token')).json();
    const feed = async () => (await get(new URL(url).pathname)).body;
    expect(await feed()).toContain(`Chapter of ${warned.title}`);
    await as(t.app, reader).put('/api/my/filters', { exclude_warnings: ['abuse'] });
    const after = await feed();
    expect(after).toContain(`Chapter of ${kept.title}`);
    expect(after).not.toContain(`Chapter of ${warned.title}`);
  });
});

describe('saved exclusions on the home page', () => {
  it("leave a muted author out of the reader's author picks", async () => {
    const reader = await signup(t.app);
    const author = await signup(t.app);
    await publishedBook(author);
    // Followers make the author a featured pick.
    for (let i = 0; i < 3; i++)
      await as(t.app, await signup(t.app)).post('/api/follows', { author_id: author.id });
    const featured = async (who?: TestUser, query = '') =>
      (
        (await get(`/api/home/authors${query}`, who)).json().featured_authors as { id: number }[]
      ).map((a) => a.id);
    expect(await featured(reader)).toContain(author.id);
    await as(t.app, reader).put('/api/my/filters', { muted_authors: [author.username] });
    expect(await featured(reader)).not.toContain(author.id);
    expect(await featured(reader, '?filters=off')).toContain(author.id);
    expect(await featured()).toContain(author.id);
  });
});
