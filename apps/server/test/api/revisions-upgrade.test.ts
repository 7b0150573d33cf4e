import { expect, it } from 'vitest';
import { versionContent } from '../../src/modules/revisions/revision-log.ts';
import { insertOldBook, insertOldUser, upgradedApp } from '../helpers/old-library.ts';
import { insertChapter } from '../helpers/rows.ts';

// A library written before versions were kept (migration 0017): each chapter starts with its
// state at the upgrade as a version, so the first save after it leaves the old text in History.
const chapterIds: number[] = [];

const t = upgradedApp('0016_releases', async (old, at) => {
  const bookId = await insertOldBook(
    old,
    await insertOldUser(old, 'keeper', at),
    'Before versions',
    at,
  );
  chapterIds.push(
    await insertChapter(old, bookId, { title: 'Out already', order: 1, published: true }),
    await insertChapter(old, bookId, { title: 'A draft', order: 2, published: false }),
  );
});

it('keeps every existing chapter as it was as its first version, published when it was', async () => {
  const rows = await t()
    .ctx.db.selectFrom('chapter_revisions')
    .select(['chapter_id', 'kind', 'published', 'title'])
    .orderBy('chapter_id')
    .execute();
  expect(rows).toEqual([
    { chapter_id: chapterIds[0], kind: 'save', published: 1, title: 'Out already' },
    { chapter_id: chapterIds[1], kind: 'save', published: 0, title: 'A draft' },
  ]);
  // The first save after the upgrade: the text it replaced can still be read back.
  await t()
    .ctx.db.updateTable('chapters')
    .set({ content: '<p>Rewritten</p>', save_kind: 'save' })
    .where('id', '=', chapterIds[1]!)
    .execute();
  const versions = await t()
    .ctx.db.selectFrom('chapter_revisions')
    .select('id')
    .where('chapter_id', '=', chapterIds[1]!)
    .orderBy('id')
    .execute();
  expect(versions).toHaveLength(2);
  expect(await versionContent(t().ctx.db, chapterIds[1]!, versions[0]!.id)).toBe('<p>A draft</p>');
});
