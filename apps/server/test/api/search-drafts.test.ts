import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/db/kysely.ts';
import { nowIso } from '../../src/lib/convert.ts';
import { CHAPTER_WINDOW, DOCUMENT_WINDOW } from '../../src/modules/search/search.repository.ts';
import {
  as,
  createBook,
  createTestApp,
  signup,
  type TestApp,
  type TestUser,
} from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { insertPublishedChapters } from '../helpers/rows.ts';
import { searchIds as searchAppIds } from '../helpers/search.ts';

// Migration 0025: the search index holds only what anyone may read. A draft book's document and
// the published chapters of a draft book used to be indexed and dropped only after ranking, so
// they took places in the windows of newest matches: enough drafts hid every published match.

let t: TestApp;
let author: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  author = await signup(t.app);
});
afterAll(() => t.close());

const searchIds = (q: string) => searchAppIds(t, q, '&limit=100');

/** Index entries of the chapters holding `word`, and whether the book has a document. */
async function indexed(bookId: number, word: string) {
  const chapters = isPostgres(t.ctx.db)
    ? await sql<{ n: number }>`select count(*)::int as n from chapter_search s
        join chapters c on c.id = s.chapter_id
       where c.book_id = ${bookId} and s.content_tsv @@ plainto_tsquery('english', ${word})`.execute(
        t.ctx.db,
      )
    : await sql<{ n: number }>`select count(*) as n from chapter_fts f
        join chapters c on c.id = f.rowid
       where c.book_id = ${bookId} and chapter_fts match ${word}`.execute(t.ctx.db);
  const documents = await t.ctx.db
    .selectFrom('book_search')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('book_id', '=', bookId)
    .executeTakeFirstOrThrow();
  return { chapters: Number(chapters.rows[0]!.n), document: Number(documents.n) > 0 };
}

describe('drafts in search', () => {
  it('take no place in the chapter window: a published match behind many drafts is found', async () => {
    const word = 'quillwort';
    const shown = await createBook(t.app, author, 'The Shown Garden', { published: true });
    await createChapter(
      t.app,
      author,
      shown.id,
      { content: `<p>A ${word} by the gate.</p>` },
      {
        published: true,
      },
    );
    const draft = await createBook(t.app, author, 'The Hidden Garden');
    const parts = Array.from({ length: CHAPTER_WINDOW }, (_, i) => ({
      text: `The ${word} grew by the old wall, part ${i + 1}.`,
    }));
    for (let i = 0; i < parts.length; i += 100)
      await insertPublishedChapters(t.ctx.db, draft.id, parts.slice(i, i + 100));

    expect(await searchIds(word)).toEqual([shown.id]);
    expect((await indexed(draft.id, word)).chapters).toBe(0);
  }, 60_000);

  it('take no place in the document window: a published title behind many draft ones is found', async () => {
    const word = 'marrowfat';
    const shown = await createBook(t.app, author, `A ${word} summer`, { published: true });
    const at = nowIso();
    await t.ctx.db
      .insertInto('books')
      .values(
        Array.from({ length: DOCUMENT_WINDOW }, (_, i) => ({
          author_id: author.id,
          title: `The ${word} notebook ${i + 1}`,
          summary: '',
          cover: null,
          is_published: 0 as const,
          published_at: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();

    expect(await searchIds(word)).toEqual([shown.id]);
  }, 60_000);

  it('leave the index the moment their book is unpublished, and come back when it is published again', async () => {
    const word = 'zephyrine';
    const book = await createBook(t.app, author, `The ${word} letters`, { published: true });
    await createChapter(
      t.app,
      author,
      book.id,
      { content: `<p>A ${word} morning.</p>` },
      {
        published: true,
      },
    );
    await t.ctx.searchIndexer.flush();
    expect(await indexed(book.id, word)).toEqual({ chapters: 1, document: true });

    const unpublished = await as(t.app, author).put(`/api/books/${book.id}`, {
      title: `The ${word} letters`,
      summary: '',
      is_published: false,
    });
    expect(unpublished.statusCode).toBe(200);
    // At once, before any indexing round.
    expect(await indexed(book.id, word)).toEqual({ chapters: 0, document: false });
    await t.ctx.searchIndexer.flush();
    expect(await indexed(book.id, word)).toEqual({ chapters: 0, document: false });
    expect(await searchIds(word)).toEqual([]);

    const published = await as(t.app, author).put(`/api/books/${book.id}`, {
      title: `The ${word} letters`,
      summary: '',
      is_published: true,
    });
    expect(published.statusCode).toBe(200);
    await t.ctx.searchIndexer.flush();
    expect(await indexed(book.id, word)).toEqual({ chapters: 1, document: true });
    expect(await searchIds(word)).toEqual([book.id]);
  });
});
