import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { createChapter } from '../helpers/chapters.ts';
import { prose } from '../helpers/prose.ts';

// Long values are compressed with LZ4 where the server has it (migration 0019, decision 0037):
// pglz cost about a millisecond of the server's CPU per 16 KB autosave.

let t: TestApp;
let lz4Available: boolean;

beforeAll(async () => {
  t = await createTestApp();
  const settings = await sql<{ available: boolean }>`select 'lz4' = any(enumvals) as available
    from pg_settings where name = 'default_toast_compression'`.execute(t.ctx.db);
  lz4Available = settings.rows[0]?.available === true;
});
afterAll(() => t.close());

describe('long values on PostgreSQL', () => {
  it('are stored with LZ4: a chapter, its kept version and its search document', async () => {
    const author = await signup(t.app);
    const book = await createBook(t.app, author, 'Compression', { published: true });
    const chapter = await createChapter(t.app, author, book.id, {}, { published: true });
    const { html } = prose(7).chapter(2_500);
    const saved = await as(t.app, author).put(`/api/books/${book.id}/chapters/${chapter.id}`, {
      content: html,
    });
    expect(saved.statusCode).toBe(200);
    await t.ctx.searchIndexer.flush();

    const stored = await sql<Record<string, string | null>>`select
        pg_column_compression(c.content) as content,
        (select pg_column_compression(r.content) from chapter_revisions r
          where r.chapter_id = c.id and r.content is not null
          order by r.id desc limit 1) as version,
        (select pg_column_compression(s.content_tsv) from chapter_search s
          where s.chapter_id = c.id) as search
      from chapters c where c.id = ${chapter.id}`.execute(t.ctx.db);
    const expected = lz4Available ? 'lz4' : 'pglz';
    expect(stored.rows[0]).toEqual({
      content: expected,
      version: expected,
      search: expected,
    });
    // The text reads back whole.
    const read = await as(t.app, author).get(`/api/chapters/${chapter.id}`);
    expect(read.json().content).toBe(saved.json().content);
  });
});
