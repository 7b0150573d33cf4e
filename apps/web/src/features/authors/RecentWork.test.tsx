import { screen } from '@testing-library/react';
import { createMemoryRouter, Outlet } from 'react-router';
import { describe, it } from 'vitest';
import { apiAnswer, stubApi } from '../../../test/fixtures.ts';
import {
  expectLoadMoreKeepsFocus,
  expectLoadMoreLeavesMovedFocus,
  holdPage,
} from '../../../test/load-more.ts';
import { renderRouter } from '../../../test/render.tsx';
import { RecentWork } from './components/RecentWork.tsx';

const ANN = { id: 9, username: 'ann', first_name: '', last_name: '', biography: '' };

const chapter = (id: number) => ({
  id,
  title: `Chapter ${id}`,
  book_id: 1,
  book_title: 'Book 1',
  cover: null,
  chapter_order: id,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
});

/** Ann's recent chapters in pages of 10, `total` in all; the page at offset 10 waits for `release`. */
function renderRecentWork(total: number) {
  const { held, release } = holdPage();
  const calls = stubApi((url) => {
    const offset = Number(url.searchParams.get('offset'));
    const count = Math.min(10, total - offset);
    const page = () => apiAnswer(Array.from({ length: count }, (_, i) => chapter(offset + i + 1)));
    return offset === 10 ? held.then(page) : page();
  });
  const router = createMemoryRouter(
    [
      {
        path: '/authors/ann',
        element: <Outlet context={ANN} />,
        children: [{ index: true, element: <RecentWork /> }],
      },
    ],
    { initialEntries: ['/authors/ann'] },
  );
  renderRouter(router);
  const offsets = () =>
    calls.map((call) => new URL(call, 'http://localhost').searchParams.get('offset'));
  return { offsets, release };
}

describe('keyboard focus on "Load More" of recent chapters', () => {
  const chapters = {
    label: 'Load More',
    item: (name: string) => screen.getByRole('link', { name }),
  };

  it('stays on the busy button, asks once, and goes to the first chapter of the last page', async () => {
    const { offsets, release } = renderRecentWork(23);
    await expectLoadMoreKeepsFocus({
      ...chapters,
      release,
      lastOfPages: ['Chapter 10', 'Chapter 20', 'Chapter 23'],
      firstOfLast: 'Chapter 21',
      asked: offsets,
      pages: ['0', '10', '20'],
    });
  });

  it('leaves the focus where the reader put it while the last page loaded', async () => {
    const { release } = renderRecentWork(13);
    await expectLoadMoreLeavesMovedFocus({
      ...chapters,
      release,
      lastOfPages: ['Chapter 10', 'Chapter 13'],
      elsewhere: 'Chapter 2',
    });
  });
});
