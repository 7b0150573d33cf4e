import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';

// PostgreSQL's indexer writes a round's entries in a statement whose snapshot is taken when it
// starts; an unpublish committed while that statement runs is missed both ways (the statement saw
// the chapter published, the unpublish's trigger could not see the entry being written). The
// round takes such entries back once it has committed (postgres-search.ts, indexPending).
let t: TestApp;
beforeAll(async () => {
  // Only the test's own rounds index: the periodic one would race the test for the chapter.
  t = await createTestApp({ SEARCH_INDEX_INTERVAL_MS: '3600000' });
});
afterAll(() => t.close());

/** A published chapter of a new published book, holding `content`. */
async function publishedChapter(title: string, content: string) {
  const author = await signup(t.app);
  const book = await createBook(t.app, author, title, { published: true });
  const chapter = await createChapter(t.app, author, book.id, { content }, { published: true });
  const unpublish = async () => {
    const res = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      is_published: false,
    });
    expect(res.statusCode).toBe(200);
  };
  return { book, chapter, unpublish };
}

/** The chapter's entries in PostgreSQL's search index (none, or one). */
const entriesOf = async (chapterId: number) =>
  (
    await sql`select chapter_id from chapter_search where chapter_id = ${chapterId}`.execute(
      t.ctx.db,
    )
  ).rows;

it('leaves no entry for a chapter unpublished while the round that indexes it is writing', async () => {
  // Long enough that writing its entry takes a while: the unpublish lands in the middle of it.
  const words = Array.from({ length: 24_000 }, (_, i) => `<p>w${i} and ${i}</p>`);
  const { chapter, unpublish } = await publishedChapter(
    'Quills',
    `<p>quillspar</p>${words.join('')}`,
  );
  // One round, as the periodic indexer runs it (the next, which the unpublish queued, rests).
  const round = t.ctx.search.indexPending(25, []);
  // Wait until the round's write is running, then unpublish (a writing round takes ~1 s here).
  for (const deadline = Date.now() + 10_000; ;) {
    if (Date.now() > deadline) throw new Error("never saw the round's write running");
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
       where state = 'active' and query like '%insert into chapter_search%'
         and pid <> pg_backend_pid()`.execute(t.ctx.db);
    if (rows[0]!.n > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await unpublish();
  await round;
  expect(await entriesOf(chapter.id)).toEqual([]);
  const search = await as(t.app).get('/api/books/search?q=quillspar');
  expect(search.json().books).toEqual([]);
});

it('takes out the entry of a chapter no longer published at the next round, resting or not', async () => {
  const { book, chapter, unpublish } = await publishedChapter('Rests', '<p>brindlewick</p>');
  await t.ctx.search.indexPending(25, []);
  await unpublish();
  // As a round that raced the unpublish would leave it (see above), the entry is back.
  await sql`insert into chapter_search (chapter_id, book_id, content_tsv)
    values (${chapter.id}, ${book.id}, to_tsvector('english', 'brindlewick'))`.execute(t.ctx.db);
  // The chapter was just indexed, so it rests; being unpublished, it is taken all the same.
  const round = await t.ctx.search.indexPending(25, [chapter.id]);
  expect(round?.chapters).toContain(chapter.id);
  expect(await entriesOf(chapter.id)).toEqual([]);
});
