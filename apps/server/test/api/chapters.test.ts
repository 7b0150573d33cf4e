import type { DomainEvent } from '../../src/realtime/events.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { chapterOrders, createChapter, type TestChapter } from '../helpers/chapters.ts';

let t: TestApp;
let author: TestUser;
let other: TestUser;
/** Published book of `author`, with chapters made per test. */
let published: { id: number };
let draft: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  other = await signup(t.app);
  published = await createBook(t.app, author, 'The Open Book', { published: true });
  draft = await createBook(t.app, author, 'The Secret Book');
});
afterAll(() => t.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const chapterUrl = (chapter: TestChapter) => `/api/books/${chapter.book_id}/chapters/${chapter.id}`;

/** Events published while `work` runs (the memory bus delivers on a microtask). */
async function eventsDuring(work: () => Promise<unknown>): Promise<DomainEvent[]> {
  const seen: DomainEvent[] = [];
  const unsubscribe = t.ctx.events.subscribe((event) => seen.push(event));
  try {
    await work();
    // Let delivery settle, so a stray event would be counted too.
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    unsubscribe();
  }
  return seen.filter((e) => e.type === 'chapter.published');
}

async function newBook(title: string, options: { published?: boolean } = {}) {
  return createBook(t.app, author, `${title} ${Math.random().toString(36).slice(2, 8)}`, options);
}

describe('creating a chapter', () => {
  it('answers 201 with an unpublished chapter with defaults at the end of the book', async () => {
    const book = await newBook('Defaults');
    const res = await as(t.app, author).post(`/api/books/${book.id}/chapters`, {
      book_id: book.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      book_id: book.id,
      title: 'Untitled Chapter',
      content: '<p>Edit Me!</p>',
      chapter_order: 1,
      is_published: false,
      word_count: 2,
      version: 1,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      // Issue 19: the chapter's own comment lock, its likes and the viewer's like.
      comments_locked: false,
      likes: 0,
      liked: false,
      // Issue 20: the author's notes, and (for the author) the schedule.
      note_before: '',
      note_after: '',
      publish_at: null,
    });
    const second = await createChapter(t.app, author, book.id, { title: 'Second', content: '' });
    expect(second).toMatchObject({ chapter_order: 2, title: 'Second', content: '<p>Edit Me!</p>' });
  });

  it('makes a missing or blank title unique within the book, case-insensitively', async () => {
    const book = await newBook('Untitled');
    const titles: string[] = [];
    titles.push((await createChapter(t.app, author, book.id)).title);
    titles.push(
      (await createChapter(t.app, author, book.id, { title: 'UNTITLED CHAPTER (1)' })).title,
    );
    titles.push((await createChapter(t.app, author, book.id, { title: '   ' })).title);
    titles.push((await createChapter(t.app, author, book.id, { title: null })).title);
    expect(titles).toEqual([
      'Untitled Chapter',
      'UNTITLED CHAPTER (1)',
      'Untitled Chapter (2)',
      'Untitled Chapter (3)',
    ]);
    // Another book's titles do not count.
    expect((await createChapter(t.app, author, (await newBook('Fresh')).id)).title).toBe(
      'Untitled Chapter',
    );
  });

  it('inserts at chapter_order, shifting later chapters, and clamps past the end', async () => {
    const book = await newBook('Positions');
    const [a, b, c] = [
      await createChapter(t.app, author, book.id, { title: 'A' }),
      await createChapter(t.app, author, book.id, { title: 'B' }),
      await createChapter(t.app, author, book.id, { title: 'C' }),
    ];
    const middle = await createChapter(t.app, author, book.id, { title: 'M', chapter_order: 2 });
    const front = await createChapter(t.app, author, book.id, { title: 'F', chapter_order: 1 });
    const end = await createChapter(t.app, author, book.id, { title: 'E', chapter_order: 99 });
    expect(end.chapter_order).toBe(6);
    expect(await chapterOrders(t.app, author, book.id)).toEqual([
      [front.id, 1],
      [a!.id, 2],
      [middle.id, 3],
      [b!.id, 4],
      [c!.id, 5],
      [end.id, 6],
    ]);
  });

  it('keeps orders 1..n under concurrent creates', async () => {
    const book = await newBook('Concurrent');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        as(t.app, author).post(`/api/books/${book.id}/chapters`, i % 2 ? { chapter_order: 1 } : {}),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    expect((await chapterOrders(t.app, author, book.id)).map(([, order]) => order)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
    // Concurrent untitled chapters still get distinct titles.
    const list = (await as(t.app, author).get(`/api/authors/books/${book.id}/chapters`)).json()
      .chapters;
    expect(new Set(list.map((c: TestChapter) => c.title.toLowerCase())).size).toBe(8);
  });

  it.each([
    [{ title: 5 }],
    [{ content: { html: 'x' } }],
    [{ chapter_order: 'first' }],
    [{ chapter_order: 0 }],
    [{ chapter_order: 1.5 }],
    [{ book_id: 'abc' }],
  ])('refuses a wrong body %j with 400', async (body) => {
    const res = await as(t.app, author).post(`/api/books/${published.id}/chapters`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
  });

  it('refuses a book_id that differs from the path, and malformed JSON', async () => {
    const res = await as(t.app, author).post(`/api/books/${published.id}/chapters`, {
      book_id: draft.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/book_id/);
    const malformed = await t.app.inject({
      method: 'POST',
      url: `/api/books/${published.id}/chapters`,
      headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(malformed.statusCode).toBe(400);
  });

  it('answers 404 for an unknown or malformed book id', async () => {
    for (const id of ['999999', 'abc', '-1', '1.5', '0']) {
      expect((await as(t.app, author).post(`/api/books/${id}/chapters`, {})).statusCode).toBe(404);
    }
  });
});

describe('content', () => {
  const dirty =
    '<p onclick="steal()">Hello <strong>brave</strong> new world</p>' +
    '<script>alert("x")</script><img src=x onerror="alert(1)">' +
    '<a href="javascript:alert(1)">click me</a> <a href="https://example.com">ok</a>';

  function expectClean(content: string) {
    expect(content).not.toMatch(/<script|onclick|onerror|<img|javascript:/i);
    expect(content).toContain('<strong>brave</strong>');
    expect(content).toContain('<a href="https://example.com" rel="nofollow noopener">ok</a>');
  }

  it('is sanitized on create and on update, with the word count kept', async () => {
    const chapter = await createChapter(t.app, author, published.id, { content: dirty });
    const read = (await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json();
    expectClean(read.content);
    // "Hello brave new world" + "click me" + "ok"; the script's text is dropped, not counted.
    expect(read.word_count).toBe(7);

    const updated = await as(t.app, author).put(chapterUrl(chapter), {
      content: `<p>one two</p>${dirty}`,
    });
    expect(updated.statusCode).toBe(200);
    expectClean(updated.json().content);
    expect(updated.json()).toMatchObject({ word_count: 9, title: chapter.title });
  });

  it('reads back text beyond ASCII exactly as it was saved', async () => {
    // A chapter's HTML is read as bytes on SQLite and decoded by the server (db/kysely.ts).
    const text = 'Café “naïve” — 漢字 ΟΔΟΣ 😀 ﬁn ½ Ünïcödé';
    const chapter = await createChapter(
      t.app,
      author,
      published.id,
      { content: `<p>${text}</p>` },
      { published: true },
    );
    for (const viewer of [null, author]) {
      const read = (await as(t.app, viewer).get(`/api/chapters/${chapter.id}`)).json();
      expect(read.content).toBe(`<p>${text}</p>`);
    }
    await t.ctx.searchIndexer.flush();
    const found = (
      await as(t.app).get(`/api/books/search?q=${encodeURIComponent('naïve')}`)
    ).json();
    const hit = found.books.find((b: { id: number }) => b.id === published.id);
    expect(hit?.match).toMatchObject({
      chapter_id: chapter.id,
      snippet: 'Café “<mark>naïve</mark>” — 漢字 ΟΔΟΣ 😀 ﬁn ½ Ünïcödé',
    });
  });

  it('falls back to the default for empty content on update', async () => {
    const chapter = await createChapter(t.app, author, published.id, {
      content: '<p>words here</p>',
    });
    const res = await as(t.app, author).put(chapterUrl(chapter), {
      content: '<p></p><script>x</script>',
    });
    expect(res.json()).toMatchObject({ content: '<p>Edit Me!</p>', word_count: 2 });
  });

  it('updates the search index with the new text', async () => {
    const chapter = await createChapter(t.app, author, published.id, {}, { published: true });
    await as(t.app, author).put(chapterUrl(chapter), { content: '<p>xylophonequartz</p>' });
    await t.ctx.searchIndexer.flush();
    const res = await as(t.app).get('/api/books/search?q=xylophonequartz');
    expect(res.json().books.map((b: { id: number }) => b.id)).toContain(published.id);
  });
});

describe('reading chapters', () => {
  let open: TestChapter;
  let hidden: TestChapter;
  let inDraftBook: TestChapter;

  beforeAll(async () => {
    open = await createChapter(
      t.app,
      author,
      published.id,
      { title: 'Open chapter', content: '<p>for all</p>' },
      { published: true },
    );
    hidden = await createChapter(t.app, author, published.id, { title: 'Hidden chapter' });
    inDraftBook = await createChapter(
      t.app,
      author,
      draft.id,
      { title: 'Draft book chapter' },
      { published: true },
    );
  });

  it('GET /api/chapters/{id} shows a published chapter of a published book to anyone, with content', async () => {
    for (const viewer of [null, other, author]) {
      const res = await as(t.app, viewer).get(`/api/chapters/${open.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        id: open.id,
        content: '<p>for all</p>',
        word_count: 2,
        is_published: true,
      });
    }
  });

  it('hides drafts (unpublished chapter or book) from visitors and other users with 404', async () => {
    for (const chapter of [hidden, inDraftBook]) {
      for (const viewer of [null, other]) {
        const res = await as(t.app, viewer).get(`/api/chapters/${chapter.id}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ detail: 'Chapter not found', code: 'not_found' });
      }
      expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(200);
    }
  });

  it('recognises the author by the session cookie alone', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/chapters/${hidden.id}`,
      headers: { cookie: `fastapi_token=${author.token}` },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 for unknown and malformed ids', async () => {
    for (const id of ['999999', 'abc', '-3', '2.5', '1e3', '99999999999']) {
      expect((await as(t.app, author).get(`/api/chapters/${id}`)).statusCode).toBe(404);
    }
  });

  it('GET /api/books/{id}/chapters lists published chapters without content, in order', async () => {
    const res = await as(t.app, other).get(`/api/books/${published.id}/chapters`);
    expect(res.statusCode).toBe(200);
    const chapters = res.json().chapters;
    expect(chapters.map((c: TestChapter) => c.id)).toContain(open.id);
    expect(chapters.map((c: TestChapter) => c.id)).not.toContain(hidden.id);
    expect(chapters.every((c: TestChapter) => c.is_published)).toBe(true);
    for (const c of chapters) {
      expect(c).not.toHaveProperty('content');
      expect(c.created_at).toMatch(ISO);
      expect(c.updated_at).toMatch(ISO);
    }
    const orders = chapters.map((c: TestChapter) => c.chapter_order);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
  });

  it('the book list shows drafts to the author only, and a draft book is 404 to others', async () => {
    const mine = (await as(t.app, author).get(`/api/books/${published.id}/chapters`)).json()
      .chapters;
    expect(mine.map((c: TestChapter) => c.id)).toEqual(
      expect.arrayContaining([open.id, hidden.id]),
    );
    for (const viewer of [null, other]) {
      expect((await as(t.app, viewer).get(`/api/books/${draft.id}/chapters`)).statusCode).toBe(404);
    }
    expect(
      (await as(t.app, author).get(`/api/books/${draft.id}/chapters`)).json().chapters,
    ).toHaveLength(1);
    expect((await as(t.app).get('/api/books/abc/chapters')).statusCode).toBe(404);
  });

  it("the author's view lists every chapter for the owner only", async () => {
    const url = `/api/authors/books/${published.id}/chapters`;
    const res = await as(t.app, author).get(url);
    expect(res.statusCode).toBe(200);
    const chapters = res.json().chapters;
    expect(chapters.map((c: TestChapter) => c.id)).toEqual(
      expect.arrayContaining([open.id, hidden.id]),
    );
    expect(chapters.map((c: TestChapter) => c.chapter_order)).toEqual(
      chapters.map((_: unknown, i: number) => i + 1),
    );
    expect(chapters[0]).not.toHaveProperty('content');
    expect((await as(t.app).get(url)).statusCode).toBe(401);
    expect((await as(t.app, other).get(url)).statusCode).toBe(403);
    expect((await as(t.app, other).get(`/api/authors/books/${draft.id}/chapters`)).statusCode).toBe(
      404,
    );
    expect((await as(t.app, author).get('/api/authors/books/nope/chapters')).statusCode).toBe(404);
  });
});

describe("a reader's chapter numbers", () => {
  it('count published chapters only, so a draft between two leaves no gap; the author sees the stored order', async () => {
    const book = await newBook('Numbered', { published: true });
    const [first, between, third] = [
      await createChapter(t.app, author, book.id, { title: 'First' }, { published: true }),
      await createChapter(t.app, author, book.id, { title: 'Between' }),
      await createChapter(t.app, author, book.id, { title: 'Third' }, { published: true }),
    ];
    const listed = async (viewer: TestUser | null) =>
      (await as(t.app, viewer).get(`/api/books/${book.id}/chapters`))
        .json()
        .chapters.map((c: TestChapter) => [c.id, c.chapter_order]);
    const numberOf = async (viewer: TestUser | null, chapter: TestChapter) =>
      (await as(t.app, viewer).get(`/api/chapters/${chapter.id}`)).json().chapter_order;

    for (const viewer of [null, other]) {
      expect(await listed(viewer)).toEqual([
        [first.id, 1],
        [third.id, 2],
      ]);
      expect(await numberOf(viewer, third)).toBe(2);
    }
    expect(await listed(author)).toEqual([
      [first.id, 1],
      [between.id, 2],
      [third.id, 3],
    ]);
    expect(await numberOf(author, third)).toBe(3);
    // The author's recent chapters, as their profile shows them to anyone.
    const recent = (await as(t.app).get(`/api/authors/${author.id}/chapters?limit=50`)).json();
    expect(recent.find((c: TestChapter) => c.id === third.id).chapter_order).toBe(2);

    // Notes say the number their writer is told: the reader's count published chapters only.
    const noteOn = async (who: TestUser, chapter: TestChapter) => {
      const res = await as(t.app, who).post('/api/my/notes', {
        book_id: book.id,
        chapter_id: chapter.id,
        paragraph: 0,
        body: 'A note',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().chapter_order;
    };
    expect(await noteOn(other, third)).toBe(2);
    expect(await noteOn(author, third)).toBe(3);
    expect(await noteOn(author, between)).toBe(2);

    // Once the draft is out, the numbers follow (the visitor's kept answers are dropped too).
    const res = await as(t.app, author).put(chapterUrl(between), { is_published: true });
    expect(res.statusCode).toBe(200);
    expect(await listed(null)).toEqual([
      [first.id, 1],
      [between.id, 2],
      [third.id, 3],
    ]);
    expect(await numberOf(null, third)).toBe(3);
  });
});

describe('updating a chapter', () => {
  it('changes the title (trimmed, plain text) and bumps the version', async () => {
    const chapter = await createChapter(t.app, author, published.id, { title: 'Before' });
    const res = await as(t.app, author).put(chapterUrl(chapter), {
      title: '  After <b>&</b> "quotes"  ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'After <b>&</b> "quotes"',
      version: chapter.version + 1,
    });
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json().title).toBe(
      'After <b>&</b> "quotes"',
    );
  });

  it('publishes and unpublishes without bumping the version', async () => {
    const chapter = await createChapter(t.app, author, published.id);
    const on = await as(t.app, author).put(chapterUrl(chapter), { is_published: true });
    expect(on.json()).toMatchObject({ is_published: true, version: chapter.version });
    const off = await as(t.app, author).put(chapterUrl(chapter), { is_published: false });
    expect(off.json().is_published).toBe(false);
    expect((await as(t.app, other).get(`/api/chapters/${chapter.id}`)).statusCode).toBe(404);
  });

  it.each([
    [{}],
    [{ title: '   ' }],
    [{ title: 7 }],
    [{ is_published: 'yes' }],
    [{ content: 42 }],
    [{ version: 'one' }],
    [{ version: 1 }],
    // Beyond a 32-bit version: a clear 400, not a database error (fuzz, PostgreSQL).
    [{ title: 'x', version: Number.MAX_SAFE_INTEGER }],
    [{ title: 'x', version: 2_147_483_648 }],
  ])('refuses %j with 400', async (body) => {
    const chapter = await createChapter(t.app, author, published.id);
    const res = await as(t.app, author).put(chapterUrl(chapter), body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation');
  });

  it('answers 404 for a chapter addressed through another book', async () => {
    const chapter = await createChapter(t.app, author, published.id, { title: 'Stays' });
    const res = await as(t.app, author).put(`/api/books/${draft.id}/chapters/${chapter.id}`, {
      title: 'Moved',
    });
    expect(res.statusCode).toBe(404);
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json().title).toBe('Stays');
    for (const url of [
      `/api/books/${published.id}/chapters/999999`,
      `/api/books/${published.id}/chapters/x`,
    ]) {
      expect((await as(t.app, author).put(url, { title: 'x' })).statusCode).toBe(404);
    }
  });

  it('answers 409 for a stale version and applies a current one or none', async () => {
    const chapter = await createChapter(t.app, author, published.id);
    const first = await as(t.app, author).put(chapterUrl(chapter), {
      content: '<p>one</p>',
      version: chapter.version,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().version).toBe(chapter.version + 1);

    const stale = await as(t.app, author).put(chapterUrl(chapter), {
      content: '<p>lost</p>',
      version: chapter.version,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      detail: 'This chapter was changed elsewhere',
      code: 'conflict',
    });
    expect((await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json().content).toBe(
      '<p>one</p>',
    );

    const blind = await as(t.app, author).put(chapterUrl(chapter), { content: '<p>two</p>' });
    expect(blind.json()).toMatchObject({ content: '<p>two</p>', version: chapter.version + 2 });
  });

  it('answers a save sent again after it was committed as done, not as a conflict', async () => {
    // A load balancer retries a PUT whose process died after the commit (decision 0028).
    const chapter = await createChapter(t.app, author, published.id);
    const save = { content: '<p>once<br>more</p>', title: 'Twice', version: chapter.version };
    const first = await as(t.app, author).put(chapterUrl(chapter), save);
    expect(first.statusCode).toBe(200);
    const again = await as(t.app, author).put(chapterUrl(chapter), save);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());

    // Anything it would change is still a conflict, the publication state included.
    for (const body of [
      { ...save, content: '<p>other</p>' },
      { ...save, title: 'Other' },
      { ...save, is_published: true },
    ]) {
      expect((await as(t.app, author).put(chapterUrl(chapter), body)).statusCode).toBe(409);
    }
    const read = (await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json();
    expect(read).toEqual(first.json());

    // The same for a save that also sets the author's notes and the comment lock (issues 19, 20).
    const notes = {
      content: '<p>noted</p>',
      note_before: '<p>Before</p>',
      note_after: '<p>After</p>',
      comments_locked: true,
      version: read.version,
    };
    const noted = await as(t.app, author).put(chapterUrl(chapter), notes);
    expect(noted.statusCode).toBe(200);
    const noteAgain = await as(t.app, author).put(chapterUrl(chapter), notes);
    expect(noteAgain.statusCode).toBe(200);
    expect(noteAgain.json()).toEqual(noted.json());
    for (const body of [
      { ...notes, note_before: '<p>Other</p>' },
      { ...notes, note_after: '' },
      { ...notes, comments_locked: false },
    ]) {
      expect((await as(t.app, author).put(chapterUrl(chapter), body)).statusCode).toBe(409);
    }
  });

  it('still refuses a stale save whose text happens to match, once someone else saved since', async () => {
    const chapter = await createChapter(t.app, author, published.id);
    const text = { content: '<p>the same words</p>' };
    const mine = await as(t.app, author).put(chapterUrl(chapter), {
      ...text,
      version: chapter.version,
    });
    expect(mine.statusCode).toBe(200);
    // Another tab renames the chapter from the new version: two saves since the stale tab's.
    const other = await as(t.app, author).put(chapterUrl(chapter), {
      title: 'Renamed elsewhere',
      version: mine.json().version,
    });
    expect(other.statusCode).toBe(200);
    const stale = await as(t.app, author).put(chapterUrl(chapter), {
      ...text,
      version: chapter.version,
    });
    expect(stale.statusCode).toBe(409);
  });

  it('answers the chapter exactly as a read then shows it', async () => {
    const chapter = await createChapter(t.app, author, draft.id);
    const before = (await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json();
    // The editor's own spelling of a line break, a rule and a no-break space.
    const saved = await as(t.app, author).put(chapterUrl(chapter), {
      content: '<p>One two<br>three&nbsp;four</p><hr><p>it’s <em>five</em></p>',
      version: chapter.version,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      content: '<p>One two<br />three\u00a0four</p><hr /><p>it’s <em>five</em></p>',
      word_count: 6,
      version: chapter.version + 1,
      updated_at: expect.stringMatching(ISO),
    });
    expect(saved.json().updated_at >= before.updated_at).toBe(true);
    const read = await as(t.app, author).get(`/api/chapters/${chapter.id}`);
    expect(read.json()).toEqual(saved.json());

    // A change of title alone answers the stored content too.
    const renamed = await as(t.app, author).put(chapterUrl(chapter), { title: 'Renamed' });
    expect(renamed.json()).toEqual({
      ...saved.json(),
      title: 'Renamed',
      version: chapter.version + 2,
      updated_at: renamed.json().updated_at,
    });
  });

  it('checks ownership before the version, and a refused update changes nothing', async () => {
    const chapter = await createChapter(t.app, author, published.id, { content: '<p>kept</p>' });
    const stale = { content: '<p>taken</p>', version: chapter.version + 5 };
    expect((await as(t.app, other).put(chapterUrl(chapter), stale)).statusCode).toBe(403);
    const elsewhere = `/api/books/${draft.id}/chapters/${chapter.id}`;
    expect((await as(t.app, author).put(elsewhere, stale)).statusCode).toBe(404);
    expect((await as(t.app, author).put(chapterUrl(chapter), stale)).statusCode).toBe(409);
    const read = (await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json();
    expect(read).toMatchObject({ content: '<p>kept</p>', version: chapter.version });
  });

  it('lets one of several saves from the same version through and answers 409 to the others', async () => {
    const chapter = await createChapter(t.app, author, published.id);
    const saves = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        as(t.app, author).put(chapterUrl(chapter), {
          content: `<p>save ${n}</p>`,
          version: chapter.version,
        }),
      ),
    );
    const codes = saves.map((s) => s.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409, 409]);
    const winner = saves.find((s) => s.statusCode === 200)!.json();
    const read = (await as(t.app, author).get(`/api/chapters/${chapter.id}`)).json();
    expect(read).toMatchObject({ content: winner.content, version: chapter.version + 1 });
  });
});

describe('chapter.published events', () => {
  it('are published once, on the first publication in a published book', async () => {
    const chapter = await createChapter(t.app, author, published.id, { title: 'News' });
    const first = await eventsDuring(() =>
      as(t.app, author).put(chapterUrl(chapter), { is_published: true }),
    );
    expect(first).toEqual([
      {
        type: 'chapter.published',
        authorId: author.id,
        authorUsername: author.username,
        bookId: published.id,
        bookTitle: 'The Open Book',
        chapterId: chapter.id,
        chapterTitle: 'News',
        // Written with the publication; this book has no followers.
        inboxWritten: [],
      },
    ]);
    const later = await eventsDuring(async () => {
      await as(t.app, author).put(chapterUrl(chapter), { content: '<p>autosave</p>' });
      await as(t.app, author).put(chapterUrl(chapter), { is_published: true });
      await as(t.app, author).put(chapterUrl(chapter), { is_published: false });
      await as(t.app, author).put(chapterUrl(chapter), { is_published: true });
      await as(t.app, author).put(chapterUrl(chapter), { title: 'Renamed' });
    });
    expect(later).toEqual([]);
  });

  it('are not published while the book is a draft, nor later for that chapter', async () => {
    const book = await newBook('Quiet');
    const chapter = await createChapter(t.app, author, book.id);
    expect(
      await eventsDuring(() => as(t.app, author).put(chapterUrl(chapter), { is_published: true })),
    ).toEqual([]);
    await as(t.app, author).put(`/api/books/${book.id}`, { title: book.title, is_published: true });
    const republished = await eventsDuring(async () => {
      await as(t.app, author).put(chapterUrl(chapter), { is_published: false });
      await as(t.app, author).put(chapterUrl(chapter), { is_published: true });
    });
    expect(republished).toEqual([]);
  });

  it('are published exactly once when two publishes race', async () => {
    const chapter = await createChapter(t.app, author, published.id);
    const events = await eventsDuring(() =>
      Promise.all(
        [1, 2, 3].map(() => as(t.app, author).put(chapterUrl(chapter), { is_published: true })),
      ),
    );
    expect(events).toHaveLength(1);
  });
});

describe('reordering', () => {
  async function bookWith(n: number) {
    const book = await newBook('Order');
    const chapters: TestChapter[] = [];
    for (let i = 0; i < n; i++)
      chapters.push(await createChapter(t.app, author, book.id, { title: `C${i}` }));
    return { book, ids: chapters.map((c) => c.id) };
  }

  it('renumbers 1..n in the order given, in one call', async () => {
    const { book, ids } = await bookWith(4);
    const [a, b, c, d] = ids as [number, number, number, number];
    const res = await as(t.app, author).put(`/api/books/${book.id}/chapters`, {
      chapters: [
        { id: d, chapter_order: 10 },
        { id: b, chapter_order: 20 },
        { id: a, chapter_order: 30 },
        { id: c, chapter_order: 40 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().chapters.map((x: TestChapter) => [x.id, x.chapter_order])).toEqual([
      [d, 1],
      [b, 2],
      [a, 3],
      [c, 4],
    ]);
    expect(await chapterOrders(t.app, author, book.id)).toEqual([
      [d, 1],
      [b, 2],
      [a, 3],
      [c, 4],
    ]);
  });

  it('rejects foreign ids, duplicates and incomplete lists, leaving orders untouched', async () => {
    const { book, ids } = await bookWith(3);
    const [a, b, c] = ids as [number, number, number];
    const foreign = await createChapter(t.app, author, published.id);
    const before = await chapterOrders(t.app, author, book.id);
    for (const chapters of [
      [
        { id: c, chapter_order: 1 },
        { id: b, chapter_order: 2 },
        { id: foreign.id, chapter_order: 3 },
      ],
      [
        { id: c, chapter_order: 1 },
        { id: b, chapter_order: 2 },
        { id: a, chapter_order: 3 },
        { id: foreign.id, chapter_order: 4 },
      ],
      [
        { id: c, chapter_order: 1 },
        { id: c, chapter_order: 2 },
        { id: a, chapter_order: 3 },
      ],
      [
        { id: c, chapter_order: 1 },
        { id: b, chapter_order: 2 },
        { id: a, chapter_order: 3 },
        { id: a, chapter_order: 4 },
      ],
      [
        { id: c, chapter_order: 1 },
        { id: a, chapter_order: 2 },
      ],
      [
        { id: c, chapter_order: 1 },
        { id: b, chapter_order: 2 },
        { id: 999999, chapter_order: 3 },
      ],
      [],
    ]) {
      const res = await as(t.app, author).put(`/api/books/${book.id}/chapters`, { chapters });
      expect(res.statusCode, JSON.stringify(chapters)).toBe(400);
      expect(res.json().code).toBe('validation');
    }
    expect(await chapterOrders(t.app, author, book.id)).toEqual(before);
    expect((await as(t.app, author).get(`/api/chapters/${foreign.id}`)).json().chapter_order).toBe(
      foreign.chapter_order,
    );
  });

  it.each([
    [{}],
    [{ chapters: 'all' }],
    [{ chapters: [{ id: 'x', chapter_order: 1 }] }],
    [{ chapters: [{ id: 1 }] }],
  ])('refuses a malformed body %j with 400', async (body) => {
    expect(
      (await as(t.app, author).put(`/api/books/${published.id}/chapters`, body)).statusCode,
    ).toBe(400);
  });
});

describe('deleting a chapter', () => {
  it('closes the gap so orders stay 1..n', async () => {
    const book = await newBook('Delete');
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await createChapter(t.app, author, book.id)).id);
    const res = await as(t.app, author).delete(`/api/chapters/${ids[1]}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Chapter deleted' });
    expect(await chapterOrders(t.app, author, book.id)).toEqual([
      [ids[0], 1],
      [ids[2], 2],
      [ids[3], 3],
    ]);
    expect((await as(t.app, author).delete(`/api/chapters/${ids[1]}`)).statusCode).toBe(404);
    expect((await as(t.app, author).get(`/api/chapters/${ids[1]}`)).statusCode).toBe(404);
    expect((await as(t.app, author).delete('/api/chapters/nope')).statusCode).toBe(404);
  });

  it('keeps orders 1..n when deletes and creates race', async () => {
    const book = await newBook('Race');
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push((await createChapter(t.app, author, book.id)).id);
    const results = await Promise.all([
      as(t.app, author).delete(`/api/chapters/${ids[0]}`),
      as(t.app, author).post(`/api/books/${book.id}/chapters`, { chapter_order: 2 }),
      as(t.app, author).delete(`/api/chapters/${ids[3]}`),
      as(t.app, author).post(`/api/books/${book.id}/chapters`, {}),
      as(t.app, author).delete(`/api/chapters/${ids[5]}`),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 201, 201]);
    expect((await chapterOrders(t.app, author, book.id)).map(([, order]) => order)).toEqual([
      1, 2, 3, 4, 5,
    ]);
  });
});

describe('ownership of every mutating call', () => {
  type Call = (
    user: TestUser | null,
    book: { id: number },
    chapter: TestChapter,
  ) => ReturnType<ReturnType<typeof as>['get']>;
  const calls: Array<[string, Call, number]> = [
    [
      'POST /api/books/{id}/chapters',
      (u, b) => as(t.app, u).post(`/api/books/${b.id}/chapters`, { title: 'Intruder' }),
      201,
    ],
    [
      'PUT /api/books/{id}/chapters',
      (u, b, c) =>
        as(t.app, u).put(`/api/books/${b.id}/chapters`, {
          chapters: [{ id: c.id, chapter_order: 1 }],
        }),
      200,
    ],
    [
      'PUT /api/books/{b}/chapters/{c}',
      (u, _b, c) => as(t.app, u).put(chapterUrl(c), { title: 'Hijacked' }),
      200,
    ],
    ['DELETE /api/chapters/{id}', (u, _b, c) => as(t.app, u).delete(`/api/chapters/${c.id}`), 200],
  ];

  it.each(calls)(
    '%s: anonymous 401, another user 403 or 404 for drafts, the owner succeeds',
    async (_name, call, ok) => {
      const open = await newBook('Owned', { published: true });
      const secret = await newBook('Owned draft');
      const openChapter = await createChapter(t.app, author, open.id, {}, { published: true });
      const secretChapter = await createChapter(t.app, author, secret.id);

      expect((await call(null, open, openChapter)).statusCode).toBe(401);
      expect((await call(other, open, openChapter)).statusCode).toBe(403);
      expect((await call(other, secret, secretChapter)).statusCode).toBe(404);
      expect((await call(author, open, openChapter)).statusCode).toBe(ok);
      expect((await call(author, secret, secretChapter)).statusCode).toBe(ok);
    },
  );

  it('a draft chapter of a published book is 404 to another user who tries to delete it', async () => {
    const hidden = await createChapter(t.app, author, published.id);
    expect((await as(t.app, other).delete(`/api/chapters/${hidden.id}`)).statusCode).toBe(404);
    expect((await as(t.app, author).get(`/api/chapters/${hidden.id}`)).statusCode).toBe(200);
  });
});
