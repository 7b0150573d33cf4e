import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshAfterPublicChange } from '../src/features/editor/api/chapter.ts';
import { keys } from '../src/lib/query-keys.ts';
import { refreshPublicViews } from '../src/lib/query.ts';

/** A client holding one fresh answer under each key, and which of them are stale now. */
function clientWith(queryKeys: ReadonlyArray<readonly unknown[]>) {
  const client = new QueryClient();
  for (const queryKey of queryKeys) client.setQueryData(queryKey, { cached: true });
  const stale = () => queryKeys.filter((queryKey) => client.getQueryState(queryKey)?.isInvalidated);
  return { client, stale };
}

describe('refreshing what readers see after an author writes', () => {
  it("marks every public view of books stale (lists, a book's page, profiles, home), not the reader's own", () => {
    const { client, stale } = clientWith([
      keys.bookList(''),
      keys.book(3),
      keys.authorBooks(7, false),
      keys.author('writer'),
      keys.homeRecent(false),
      keys.history,
      keys.library,
    ]);
    refreshPublicViews(client);
    expect(stale()).toEqual([
      keys.bookList(''),
      keys.book(3),
      keys.authorBooks(7, false),
      keys.author('writer'),
      keys.homeRecent(false),
    ]);
  });

  it("after publishing or renaming a chapter, the author's chapter list and the public views", () => {
    const { client, stale } = clientWith([
      keys.authorChapters(3),
      keys.chapter(11),
      keys.authorRecentChapters(7, false),
      keys.homeRecent(false),
      keys.authorChapters(4),
    ]);
    refreshAfterPublicChange(client, 3, 11);
    expect(stale()).toEqual([
      keys.authorChapters(3),
      keys.chapter(11),
      keys.authorRecentChapters(7, false),
      keys.homeRecent(false),
    ]);
  });
});
