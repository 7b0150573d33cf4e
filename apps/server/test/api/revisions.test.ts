import { MAX_CHAPTERS_PER_BOOK } from '@inkwell/contract/constants';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  reinsertChapter,
  takeDeletedChapter,
} from '../../src/modules/chapters/chapters.repository.ts';
import { packWhole } from '../../src/modules/revisions/revision-codec.ts';
import { compactRevisions, versionContent } from '../../src/modules/revisions/revision-log.ts';
import { retentionCutoffs } from '../../src/modules/revisions/retention.ts';
import {
  chaptersWithRevisionWork,
  lockChapterVersions,
} from '../../src/modules/revisions/revisions.repository.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { chapterOrders, createChapter } from '../helpers/chapters.ts';
import { epub3 } from '../helpers/ebooks.ts';
import { importFile } from '../helpers/imports.ts';

/** Issue 20, "Every version kept": versions of a chapter, retention, and recently deleted chapters. */
let t: TestApp;
let author: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
  stranger = await signup(t.app);
});
afterAll(() => t.close());

let titles = 0;
const newBook = (published = true) =>
  createBook(t.app, author, `Versions ${++titles}`, { published });

type Summary = { id: number; created_at: string; words: number; kind: string };
const versions = async (chapterId: number, who: TestUser = author) => {
  const res = await as(t.app, who).get(`/api/chapters/${chapterId}/revisions`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ revisions: Summary[] }>().revisions;
};
const save = (bookId: number, chapterId: number, body: Record<string, unknown>) =>
  as(t.app, author).put(`/api/books/${bookId}/chapters/${chapterId}`, body);

describe('every save keeps a version', () => {
  it('records the kind of each path, newest first, and skips a save identical to the last', async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, {
      title: 'One',
      content: '<p>First words here.</p>',
    });
    expect(
      (await save(book.id, chapter.id, { content: '<p>Typed a little.</p>', autosave: true }))
        .statusCode,
    ).toBe(200);
    // The same text again (an autosave that found nothing new) keeps nothing.
    expect(
      (await save(book.id, chapter.id, { content: '<p>Typed a little.</p>', autosave: true }))
        .statusCode,
    ).toBe(200);
    expect((await save(book.id, chapter.id, { title: 'One, saved' })).statusCode).toBe(200);
    // Locking comments changes neither title nor content: no version.
    expect((await save(book.id, chapter.id, { comments_locked: true })).statusCode).toBe(200);
    expect((await save(book.id, chapter.id, { is_published: true })).statusCode).toBe(200);

    const list = await versions(chapter.id);
    expect(list.map((v) => v.kind)).toEqual(['publish', 'save', 'autosave', 'save']);
    expect(list.map((v) => v.words)).toEqual([3, 3, 3, 3]);
    const ids = list.map((v) => v.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    for (const v of list)
      expect(Object.keys(v).sort()).toEqual(['created_at', 'id', 'kind', 'words']);

    const first = await as(t.app, author).get(`/api/chapters/${chapter.id}/revisions/${ids[3]}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      ...list[3],
      title: 'One',
      content: '<p>First words here.</p>',
    });
  });

  it('restores a version: a new version of kind restore, the version bumped, readers see it', async () => {
    const book = await newBook();
    const chapter = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Old title', content: '<p>The old text.</p>' },
      { published: true },
    );
    const saved = await save(book.id, chapter.id, {
      title: 'New title',
      content: '<p>The new text, longer now.</p>',
    });
    const [, , oldest] = await versions(chapter.id);
    expect(oldest!.kind).toBe('save');

    const restored = await as(t.app, author).post(
      `/api/chapters/${chapter.id}/revisions/${oldest!.id}/restore`,
    );
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      id: chapter.id,
      title: 'Old title',
      content: '<p>The old text.</p>',
      word_count: 3,
      is_published: true,
      version: saved.json().version + 1,
    });
    expect((await versions(chapter.id))[0]!.kind).toBe('restore');
    const read = await as(t.app, null).get(`/api/chapters/${chapter.id}`);
    expect(read.json()).toMatchObject({ title: 'Old title', content: '<p>The old text.</p>' });
    // Restoring the version that is already current still says so in History.
    await as(t.app, author).post(`/api/chapters/${chapter.id}/revisions/${oldest!.id}/restore`);
    expect((await versions(chapter.id)).slice(0, 2).map((v) => v.kind)).toEqual([
      'restore',
      'restore',
    ]);
  });

  it('keeps an import as versions of kind import', async () => {
    const file = await epub3({
      title: `Imported versions ${++titles}`,
      author: 'Someone',
      docs: [
        { file: 'one.xhtml', toc: 'Arrival', body: '<p>They arrived.</p>' },
        { file: 'two.xhtml', toc: 'Departure', body: '<p>They left.</p>' },
      ],
    });
    const job = await importFile(t.app, author, file, 'versions.epub');
    expect(job.status).toBe('done');
    const { chapters } = (
      await as(t.app, author).get(`/api/authors/books/${job.book_id}/chapters`)
    ).json();
    expect(chapters).toHaveLength(2);
    for (const c of chapters) expect((await versions(c.id)).map((v) => v.kind)).toEqual(['import']);
  });
});

describe('only the author', () => {
  it('answers 404 to anyone else, published or not, and 401 without a session', async () => {
    const book = await newBook();
    const published = await createChapter(
      t.app,
      author,
      book.id,
      { content: '<p>Public.</p>' },
      { published: true },
    );
    const draft = await createChapter(t.app, author, book.id, { content: '<p>Draft.</p>' });
    const [mine] = await versions(published.id);
    for (const c of [published, draft]) {
      const [v] = await versions(c.id);
      for (const res of [
        await as(t.app, stranger).get(`/api/chapters/${c.id}/revisions`),
        await as(t.app, stranger).get(`/api/chapters/${c.id}/revisions/${v!.id}`),
        await as(t.app, stranger).post(`/api/chapters/${c.id}/revisions/${v!.id}/restore`),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
      expect((await as(t.app, null).get(`/api/chapters/${c.id}/revisions`)).statusCode).toBe(401);
    }
    // A version of another chapter is not this chapter's.
    const other = await as(t.app, author).get(`/api/chapters/${draft.id}/revisions/${mine!.id}`);
    expect(other.statusCode).toBe(404);
    const restore = await as(t.app, author).post(
      `/api/chapters/${draft.id}/revisions/${mine!.id}/restore`,
    );
    expect(restore.statusCode).toBe(404);
    expect((await as(t.app, author).get(`/api/chapters/${published.id}`)).json().content).toBe(
      '<p>Public.</p>',
    );
    expect(
      (await as(t.app, stranger).get(`/api/books/${book.id}/deleted-chapters`)).statusCode,
    ).toBe(404);
  });
});

describe('recently deleted chapters', () => {
  it('lists a deleted chapter and puts it back at its place, with its versions', async () => {
    const book = await newBook();
    const one = await createChapter(t.app, author, book.id, { title: 'One' }, { published: true });
    const two = await createChapter(
      t.app,
      author,
      book.id,
      { title: 'Two', content: '<p>Second.</p>' },
      { published: true },
    );
    const three = await createChapter(t.app, author, book.id, { title: 'Three' });
    await save(book.id, two.id, { content: '<p>Second, edited.</p>', autosave: true });
    const kept = await versions(two.id);

    // The book's words (issue 21) are of its published chapters: they leave and come back.
    const bookWords = async () =>
      (await as(t.app, author).get(`/api/books/${book.id}`)).json().words;
    const wordsBefore = await bookWords();
    expect((await as(t.app, author).delete(`/api/chapters/${two.id}`)).statusCode).toBe(200);
    expect(await bookWords()).toBe(wordsBefore - 2);
    expect(await chapterOrders(t.app, author, book.id)).toEqual([
      [one.id, 1],
      [three.id, 2],
    ]);
    const listed = await as(t.app, author).get(`/api/books/${book.id}/deleted-chapters`);
    expect(listed.statusCode).toBe(200);
    const [deleted] = listed.json().chapters;
    expect(deleted).toMatchObject({
      id: two.id,
      book_id: book.id,
      title: 'Two',
      chapter_order: 2,
      is_published: true,
      word_count: 2,
    });
    expect(Date.parse(deleted.purge_at) - Date.parse(deleted.deleted_at)).toBe(30 * 86_400_000);
    expect((await as(t.app, null).get(`/api/chapters/${two.id}`)).statusCode).toBe(404);

    expect(
      (await as(t.app, stranger).post(`/api/books/${book.id}/deleted-chapters/${two.id}/restore`))
        .statusCode,
    ).toBe(404);
    const back = await as(t.app, author).post(
      `/api/books/${book.id}/deleted-chapters/${two.id}/restore`,
    );
    expect(back.statusCode, back.body).toBe(200);
    expect(await bookWords()).toBe(wordsBefore);
    expect(back.json()).toMatchObject({
      id: two.id,
      title: 'Two',
      content: '<p>Second, edited.</p>',
      chapter_order: 2,
      is_published: true,
    });
    expect(await chapterOrders(t.app, author, book.id)).toEqual([
      [one.id, 1],
      [two.id, 2],
      [three.id, 3],
    ]);
    expect(await versions(two.id)).toEqual(kept);
    expect((await as(t.app, null).get(`/api/chapters/${two.id}`)).json().content).toBe(
      '<p>Second, edited.</p>',
    );
    expect(
      (await as(t.app, author).get(`/api/books/${book.id}/deleted-chapters`)).json().chapters,
    ).toEqual([]);
    // Once back, it is no longer deleted.
    expect(
      (await as(t.app, author).post(`/api/books/${book.id}/deleted-chapters/${two.id}/restore`))
        .statusCode,
    ).toBe(404);
  });

  it("brings the author's notes back, not the schedule, and answers 404 once the book is gone", async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Noted' });
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const noted = await save(book.id, chapter.id, {
      note_before: '<p>Before.</p>',
      note_after: '<p>After.</p>',
    });
    expect(noted.statusCode, noted.body).toBe(200);
    expect((await save(book.id, chapter.id, { publish_at: later })).json().publish_at).toBe(later);
    await as(t.app, author).delete(`/api/chapters/${chapter.id}`);
    const back = await as(t.app, author).post(
      `/api/books/${book.id}/deleted-chapters/${chapter.id}/restore`,
    );
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({
      note_before: noted.json().note_before,
      note_after: noted.json().note_after,
      publish_at: null,
      is_published: false,
    });
    expect(noted.json().note_before).toContain('Before.');

    await as(t.app, author).delete(`/api/chapters/${chapter.id}`);
    expect((await as(t.app, author).delete(`/api/books/${book.id}`)).statusCode).toBeLessThan(300);
    const gone = await as(t.app, author).post(
      `/api/books/${book.id}/deleted-chapters/${chapter.id}/restore`,
    );
    expect(gone.statusCode).toBe(404);
  });

  it('deletes and restores a chapter even once `chapters` has a column deleted_chapters lacks', async () => {
    const own = await createTestApp();
    try {
      const writer = await signup(own.app);
      const book = await createBook(own.app, writer, 'Grown schema', { published: true });
      const chapter = await createChapter(own.app, writer, book.id, { title: 'Kept' });
      await sql`alter table chapters add column added_later text`.execute(own.ctx.db);
      const deleted = await as(own.app, writer).delete(`/api/chapters/${chapter.id}`);
      expect(deleted.statusCode, deleted.body).toBe(200);
      const back = await as(own.app, writer).post(
        `/api/books/${book.id}/deleted-chapters/${chapter.id}/restore`,
      );
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toMatchObject({ id: chapter.id, title: 'Kept' });
    } finally {
      await own.close();
    }
  });

  it('puts a chapter back at the end when the book has fewer chapters than its place now', async () => {
    const book = await newBook(false);
    const a = await createChapter(t.app, author, book.id, { title: 'A' });
    const b = await createChapter(t.app, author, book.id, { title: 'B' });
    const c = await createChapter(t.app, author, book.id, { title: 'C' });
    await as(t.app, author).delete(`/api/chapters/${c.id}`);
    await as(t.app, author).delete(`/api/chapters/${a.id}`);
    const listed = (await as(t.app, author).get(`/api/books/${book.id}/deleted-chapters`)).json()
      .chapters;
    expect(listed.map((x: { id: number }) => x.id)).toEqual([a.id, c.id]);
    await as(t.app, author).post(`/api/books/${book.id}/deleted-chapters/${c.id}/restore`);
    await as(t.app, author).post(`/api/books/${book.id}/deleted-chapters/${a.id}/restore`);
    expect(await chapterOrders(t.app, author, book.id)).toEqual([
      [a.id, 1],
      [b.id, 2],
      [c.id, 3],
    ]);
  });

  it('answers 400 to a restore into a book that holds the most chapters, and keeps it deleted', async () => {
    const book = await newBook(false);
    const gone = await createChapter(t.app, author, book.id, { title: 'Waiting' });
    await as(t.app, author).delete(`/api/chapters/${gone.id}`);
    // A full book, written straight to the table (ten thousand API calls would be slow).
    const at = new Date().toISOString();
    const rows = Array.from({ length: MAX_CHAPTERS_PER_BOOK }, (_, i) => ({
      book_id: book.id,
      title: `Filler ${i + 1}`,
      content: '<p>x</p>',
      word_count: 1,
      chapter_order: i + 1,
      is_published: 0 as const,
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t.ctx.db
        .insertInto('chapters')
        .values(rows.slice(i, i + 500))
        .execute();
    const refused = await as(t.app, author).post(
      `/api/books/${book.id}/deleted-chapters/${gone.id}/restore`,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      detail: `A book holds at most ${MAX_CHAPTERS_PER_BOOK} chapters`,
    });
    const listed = (await as(t.app, author).get(`/api/books/${book.id}/deleted-chapters`)).json()
      .chapters;
    expect(listed.map((x: { id: number }) => x.id)).toEqual([gone.id]);
  });
});

describe('retention, with a fake clock', () => {
  const HOUR = 3_600_000;
  const now = Date.parse('2027-06-15T12:30:00.000Z');
  const at = (ms: number) => new Date(ms).toISOString();

  it('keeps every version of 48 h, one an hour to 30 days, one a day, and every published one', async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Kept' });
    const [created] = await versions(chapter.id);
    // The creation's own version is from the real clock's today, months before the fake one.
    const saved = new Map<string, string>();
    let n = 0;
    // A save as the service writes it, at a time of the fake clock: the trigger keeps the version.
    const keep = async (label: string, time: number, published = false) => {
      const content = `<p>${'Long enough text that deltas pay. '.repeat(40)}Edit ${++n}.</p>`;
      saved.set(label, content);
      await t.ctx.db
        .updateTable('chapters')
        .set({
          content,
          word_count: 1000 + n,
          is_published: published ? 1 : 0,
          save_kind: published ? 'publish' : 'autosave',
          updated_at: at(time),
        })
        .where('id', '=', chapter.id)
        .execute();
    };
    const old = Date.parse('2027-05-01T00:00:00.000Z'); // 45 days before
    await keep('old-day-early', old + 9 * HOUR);
    await keep('old-day-published', old + 10 * HOUR, true);
    await keep('old-day-late', old + 15 * HOUR);
    await keep('next-day', old + 30 * HOUR);
    const fiveDays = Date.parse('2027-06-10T08:00:00.000Z');
    await keep('hour-a', fiveDays + 5 * 60_000);
    await keep('hour-b', fiveDays + 20 * 60_000);
    await keep('hour-c', fiveDays + 50 * 60_000);
    await keep('next-hour', fiveDays + 70 * 60_000);
    await keep('recent-1', now - 47 * HOUR);
    await keep('recent-2', now - 47 * HOUR + 60_000);
    await keep('recent-3', now - HOUR);

    const ids = new Map((await versions(chapter.id)).map((v) => [v.words, v.id]));
    const idOf = (label: string) => ids.get(1001 + [...saved.keys()].indexOf(label))!;
    const result = await compactRevisions(t.ctx.db, now);
    expect(result.dropped).toBeGreaterThanOrEqual(3);

    const left = (await versions(chapter.id)).map((v) => v.id);
    const expected = [
      'recent-3',
      'recent-2',
      'recent-1',
      'next-hour',
      'hour-c',
      'next-day',
      'old-day-late',
      'old-day-published',
    ].map(idOf);
    // The creation's version, months older than the fake clock, is the newest of its own day.
    expect(left).toEqual([...expected, created!.id]);
    // Every kept version still reads back whole, packed and rebased where its base was dropped.
    for (const label of ['recent-3', 'hour-c', 'old-day-late', 'old-day-published', 'next-day'])
      expect(await versionContent(t.ctx.db, chapter.id, idOf(label))).toBe(saved.get(label));
    const packed = await t.ctx.db
      .selectFrom('chapter_revisions')
      .select(['id', 'base_id'])
      .where('chapter_id', '=', chapter.id)
      .where('content', 'is', null)
      .execute();
    expect(packed).toHaveLength(left.length);
    expect(packed.filter((r) => r.base_id !== null).length).toBeGreaterThan(0);

    // A day later, the 48 hours have moved on: recent-1 and recent-2 share an hour now.
    await compactRevisions(t.ctx.db, now + 24 * HOUR);
    const after = (await versions(chapter.id)).map((v) => v.id);
    expect(after).not.toContain(idOf('recent-1'));
    expect(after).toContain(idOf('recent-2'));
    expect(await versionContent(t.ctx.db, chapter.id, idOf('recent-3'))).toBe(
      saved.get('recent-3'),
    );
    const restored = await as(t.app, author).post(
      `/api/chapters/${chapter.id}/revisions/${idOf('hour-c')}/restore`,
    );
    expect(restored.json().content).toBe(saved.get('hour-c'));
  });

  it("thins a published chapter's autosaves, and keeps its saves forever", async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Out' });
    const day = Date.parse('2027-06-01T09:00:00.000Z');
    const write = async (kind: 'autosave' | 'save' | 'publish', minute: number, words: number) =>
      t.ctx.db
        .updateTable('chapters')
        .set({
          content: `<p>Edit ${words}</p>`,
          word_count: words,
          is_published: 1,
          save_kind: kind,
          updated_at: at(day + minute * 60_000),
        })
        .where('id', '=', chapter.id)
        .execute();
    await write('publish', 0, 1);
    for (let i = 2; i <= 6; i++) await write('autosave', i, i);
    await write('save', 7, 7);
    for (let i = 8; i <= 12; i++) await write('autosave', i, i);
    await compactRevisions(t.ctx.db, day + 10 * 24 * HOUR);
    const left = (await versions(chapter.id)).map((v) => [v.kind, v.words]);
    // The publication and the save readers were shown stay; of the hour's autosaves, the newest.
    expect(left.slice(0, 3)).toEqual([
      ['autosave', 12],
      ['save', 7],
      ['publish', 1],
    ]);
  });

  it('keeps forever the text a Save left as it was: the autosave before it is what readers saw', async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Saved as it was' });
    expect((await save(book.id, chapter.id, { is_published: true })).statusCode).toBe(200);
    // The editor's way: an autosave, then Save with the same text, then more typing.
    const shown = '<p>The text readers were shown.</p>';
    expect((await save(book.id, chapter.id, { content: shown, autosave: true })).statusCode).toBe(
      200,
    );
    expect((await save(book.id, chapter.id, { content: shown })).statusCode).toBe(200);
    const later = { content: '<p>Typed on after the save.</p>', autosave: true };
    expect((await save(book.id, chapter.id, later)).statusCode).toBe(200);

    await compactRevisions(t.ctx.db, Date.now() + 31 * 24 * HOUR);
    const texts = await Promise.all(
      (await versions(chapter.id)).map((v) => versionContent(t.ctx.db, chapter.id, v.id)),
    );
    expect(texts).toContain(shown);
    expect(texts).toContain(later.content);
  });

  it('purges a chapter deleted 30 days ago, with its versions', async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Gone soon' });
    await as(t.app, author).delete(`/api/chapters/${chapter.id}`);
    const count = async () =>
      (
        await t.ctx.db
          .selectFrom('chapter_revisions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('chapter_id', '=', chapter.id)
          .executeTakeFirstOrThrow()
      ).n;
    expect(Number(await count())).toBe(1);
    await compactRevisions(t.ctx.db, Date.now() + 29 * 24 * HOUR);
    expect(
      (await as(t.app, author).get(`/api/books/${book.id}/deleted-chapters`)).json().chapters,
    ).toHaveLength(1);
    await compactRevisions(t.ctx.db, Date.now() + 30 * 24 * HOUR + 60_000);
    expect(
      (await as(t.app, author).get(`/api/books/${book.id}/deleted-chapters`)).json().chapters,
    ).toEqual([]);
    expect(Number(await count())).toBe(0);
  });
});

describe('the job, at its edges', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const now = Date.parse('2027-08-15T12:30:00.000Z');
  /** A version written straight to the table, packed whole, at `msAgo` before `now`. */
  const packedVersion = async (
    chapter: { id: number; book_id: number },
    msAgo: number,
    from = now,
  ) =>
    (
      await t.ctx.db
        .insertInto('chapter_revisions')
        .values({
          chapter_id: chapter.id,
          book_id: chapter.book_id,
          created_at: new Date(from - msAgo).toISOString(),
          kind: 'autosave',
          words: 1,
          published: 0,
          title: 'T',
          packed: packWhole(`<p>${msAgo}</p>`),
          base_id: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;

  it('thins exactly at 48 hours and 30 days, the database and the rule agreeing', async () => {
    const book = await newBook();
    const crowded = await createChapter(t.app, author, book.id, { title: 'Crowded' });
    const sparse = await createChapter(t.app, author, book.id, { title: 'Sparse' });
    await compactRevisions(t.ctx.db, Date.now());
    // 48 h ago exactly is kept with everything newer; 1 ms older is in the hourly part, and so
    // is 30 days exactly, while 10 and 20 minutes before it are in the daily part.
    const ages = [48 * HOUR, 48 * HOUR + 1, 30 * DAY, 30 * DAY + 600_000];
    const ids = new Map<string, number>();
    for (const chapter of [crowded, sparse]) {
      const own = chapter === crowded ? [...ages, 48 * HOUR + 2, 30 * DAY + 1_200_000] : ages;
      for (const age of own) ids.set(`${chapter.id}/${age}`, await packedVersion(chapter, age));
    }
    const work = await chaptersWithRevisionWork(t.ctx.db, retentionCutoffs(now));
    expect(work).toContain(crowded.id);
    expect(work).not.toContain(sparse.id);
    await compactRevisions(t.ctx.db, now);
    const left = async (chapterId: number) =>
      (await versions(chapterId))
        .map((v) => v.id)
        .filter((id) => id > ids.get(`${chapterId}/${48 * HOUR}`)! - 1);
    const of = (chapterId: number, list: number[]) =>
      list.map((age) => ids.get(`${chapterId}/${age}`)!);
    expect(await left(crowded.id)).toEqual(
      of(crowded.id, [30 * DAY + 600_000, 30 * DAY, 48 * HOUR + 1, 48 * HOUR]).sort(
        (a, b) => b - a,
      ),
    );
    expect(await left(sparse.id)).toEqual(of(sparse.id, ages).sort((a, b) => b - a));
  });

  it('decodes only from the last whole version before the work, and lists the newest 500', async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Long history' });
    await compactRevisions(t.ctx.db, Date.now());
    const first = await packedVersion(chapter, 40 * HOUR, Date.now());
    for (let i = 1; i <= 505; i++) await packedVersion(chapter, 40 * HOUR - i * 1000, Date.now());
    // The oldest version unreadable: a run that decoded the whole history would fail on it.
    await t.ctx.db
      .updateTable('chapter_revisions')
      .set({ packed: Buffer.from('not deflated') })
      .where('id', '=', first)
      .execute();
    await save(book.id, chapter.id, { content: '<p>A new version to pack.</p>' });
    await compactRevisions(t.ctx.db, Date.now());
    const list = await versions(chapter.id);
    expect(list).toHaveLength(500);
    expect(list[0]!.kind).toBe('save');
    expect(await versionContent(t.ctx.db, chapter.id, list[0]!.id)).toBe(
      '<p>A new version to pack.</p>',
    );
    const older = await as(t.app, author).get(
      `/api/chapters/${chapter.id}/revisions?before=${list[499]!.id}`,
    );
    // 1 creation + 506 + 1 save: the 8 older than the first page, newest first.
    const rest = older.json().revisions.map((v: Summary) => v.id);
    expect(rest).toHaveLength(8);
    expect(rest[0]).toBeLessThan(list[499]!.id);
    expect([...rest].sort((a, b) => b - a)).toEqual(rest);
  });

  it('purges a deleted chapter only if no restore took it back meanwhile', async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Back in time' });
    const kept = await versions(chapter.id);
    await as(t.app, author).delete(`/api/chapters/${chapter.id}`);
    let purge: Promise<unknown> | undefined;
    await t.ctx.db.transaction().execute(async (trx) => {
      const row = await takeDeletedChapter(trx, book.id, chapter.id);
      // The purge starts while the restore holds the chapter, not yet committed.
      purge = compactRevisions(t.ctx.db, Date.now() + 31 * DAY);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await reinsertChapter(trx, row!);
    });
    await purge;
    expect(await versions(chapter.id)).toEqual(kept);
  });

  it("lets one run at a time compact a chapter's versions", async () => {
    const book = await newBook();
    const chapter = await createChapter(t.app, author, book.id, { title: 'Contended' });
    let run: Promise<unknown> | undefined;
    let finished = false;
    await t.ctx.db.transaction().execute(async (trx) => {
      await lockChapterVersions(trx, chapter.id);
      run = compactRevisions(t.ctx.db, Date.now()).then(() => (finished = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(finished).toBe(false);
    });
    await run;
    const unpacked = await t.ctx.db
      .selectFrom('chapter_revisions')
      .select('id')
      .where('chapter_id', '=', chapter.id)
      .where('content', 'is not', null)
      .execute();
    expect(unpacked).toEqual([]);
  });
});

describe('the scheduled job', () => {
  it('packs new versions on its own, once started with the app', async () => {
    const quick = await createTestApp({ REVISION_COMPACT_INTERVAL_SECONDS: '0.2' });
    try {
      const writer = await signup(quick.app);
      const book = await createBook(quick.app, writer, 'Packed by the job');
      const chapter = await createChapter(quick.app, writer, book.id, {
        content: '<p>Words the job will pack.</p>',
      });
      const unpacked = () =>
        quick.ctx.db
          .selectFrom('chapter_revisions')
          .select('id')
          .where('chapter_id', '=', chapter.id)
          .where('content', 'is not', null)
          .execute();
      await expect.poll(async () => (await unpacked()).length, { timeout: 10_000 }).toBe(0);
      const [version] = (
        await as(quick.app, writer).get(`/api/chapters/${chapter.id}/revisions`)
      ).json().revisions;
      const read = await as(quick.app, writer).get(
        `/api/chapters/${chapter.id}/revisions/${version.id}`,
      );
      expect(read.json().content).toBe('<p>Words the job will pack.</p>');
    } finally {
      await quick.close();
    }
  });
});
