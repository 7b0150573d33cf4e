import type { BookStats } from '@inkwell/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { apiAnswer, stubApi } from '../../../test/fixtures.ts';
import { describe, expect, it, vi } from 'vitest';
import { StatsPage } from './components/StatsPage.tsx';

// uPlot asks for the screen's pixel ratio when it loads; jsdom has no matchMedia (and no canvas,
// so the page draws no chart there: its tables are what these tests read).
vi.hoisted(() => {
  window.matchMedia ??= (() => ({
    matches: false,
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
});

const STATS: BookStats = {
  book_id: 5,
  followers: {
    now: 3,
    daily: [
      { date: '2026-11-24', count: 1 },
      { date: '2026-11-25', count: 3 },
    ],
  },
  chapters: [
    { chapter_id: 11, order: 1, title: 'Dawn', readers: 9, likes: 4, comments: 2 },
    { chapter_id: 12, order: 2, title: 'Dusk', readers: null, likes: null, comments: null },
  ],
  retention: [
    { chapter_id: 11, order: 1, share: 1 },
    { chapter_id: 12, order: 2, share: null },
  ],
  paragraph_dropoff: null,
};

const withDropoff = (chapterId: number): BookStats => ({
  ...STATS,
  paragraph_dropoff: {
    chapter_id: chapterId,
    paragraphs: [
      { paragraph: 0, readers: 6 },
      { paragraph: 1, readers: null },
    ],
  },
});

function renderPage(path = '/my/workspace/books/5/stats') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ path: '/my/workspace/books/:bookId/stats', element: <StatsPage /> }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the Stats page', () => {
  it('shows every figure in a table, "fewer than 5 readers" under the floor, and a drop-off', async () => {
    const calls = stubApi((url) => {
      const chapter = url.searchParams.get('chapter');
      return apiAnswer(chapter ? withDropoff(Number(chapter)) : STATS);
    });
    renderPage();
    expect(screen.getByText('Loading statistics...')).toBeTruthy();

    const perChapter = await screen.findByRole('table', {
      name: 'Readers, likes and comments per chapter',
    });
    const rows = within(perChapter).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'ChapterTitleReadersLikesComments',
      '1Dawn942',
      '2Duskfewer than 5 readersfewer than 5 readersfewer than 5 readers',
    ]);
    const retention = screen.getByRole('table', { name: 'Retention by chapter' });
    expect(
      within(retention)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Dawn', '100%', 'Dusk', 'fewer than 5 readers']);
    const followers = screen.getByRole('table', { name: 'Followers at the end of each day (UTC)' });
    expect(within(followers).getAllByRole('row')[1]!.textContent).toBe('2026-11-253');
    expect(screen.getByText('3 followers now.')).toBeTruthy();
    expect(screen.getAllByTestId('stats-chart')).toHaveLength(3);

    // The first chapter's drop-off comes by default; choosing another asks for it.
    const dropoff = await screen.findByRole('table', { name: /stops at each paragraph/ });
    expect(
      within(dropoff)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['6', 'fewer than 5 readers']);
    expect(screen.getByTestId('heat-strip').children).toHaveLength(2);
    await userEvent.selectOptions(screen.getByLabelText('Chapter'), '12');
    await vi.waitFor(() => expect(calls).toContain('/api/my/books/5/stats?chapter=12'));
    expect(calls[0]).toBe('/api/my/books/5/stats');
  });

  it('says when no chapter is published yet', async () => {
    stubApi(() => apiAnswer({ ...STATS, chapters: [], retention: [] }));
    renderPage();
    expect(await screen.findByText(/No published chapters yet/)).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Retention by chapter' })).toBeNull();
  });

  it('says when the statistics could not be loaded', async () => {
    stubApi(() => apiAnswer({ detail: 'Boom', code: 'internal' }, 500));
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the statistics.');
  });

  it('says when the drop-off could not be loaded, and asks for it again on "Try again"', async () => {
    let failing = true;
    const calls = stubApi((url) => {
      const chapter = url.searchParams.get('chapter');
      if (!chapter) return apiAnswer(STATS);
      return failing
        ? apiAnswer({ detail: 'Boom', code: 'internal' }, 500)
        : apiAnswer(withDropoff(Number(chapter)));
    });
    renderPage();

    // The rest of the page stands; only the drop-off says it failed, instead of loading forever.
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not load where readers stop. Try again');
    expect(screen.getByRole('table', { name: 'Retention by chapter' })).toBeTruthy();
    expect(screen.queryByText('Loading...')).toBeNull();

    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const dropoff = await screen.findByRole('table', { name: /stops at each paragraph/ });
    expect(
      within(dropoff)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['6', 'fewer than 5 readers']);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(calls.filter((call) => call === '/api/my/books/5/stats?chapter=11')).toHaveLength(2);
  });

  it('says when the drop-off of another chosen chapter could not be loaded', async () => {
    stubApi((url) => {
      const chapter = url.searchParams.get('chapter');
      if (chapter === '12') return apiAnswer({ detail: 'Boom', code: 'internal' }, 500);
      return apiAnswer(chapter ? withDropoff(Number(chapter)) : STATS);
    });
    renderPage();
    await screen.findByRole('table', { name: /stops at each paragraph/ });

    await userEvent.selectOptions(screen.getByLabelText('Chapter'), '12');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not load where readers stop. Try again',
    );
    // Chapter 1's drop-off is not left on screen as if it were chapter 2's.
    expect(screen.queryByRole('table', { name: /stops at each paragraph/ })).toBeNull();
    expect(screen.getByRole('table', { name: 'Retention by chapter' })).toBeTruthy();
  });

  it('marks the last chapter’s drop-off as loading while the chosen chapter’s is on its way', async () => {
    let answerChapter12: (() => void) | null = null;
    stubApi((url) => {
      const chapter = url.searchParams.get('chapter');
      if (chapter === '12')
        return new Promise<Response>((resolve) => {
          answerChapter12 = () => resolve(apiAnswer(withDropoff(12)));
        });
      return apiAnswer(chapter ? withDropoff(Number(chapter)) : STATS);
    });
    renderPage();
    const table = await screen.findByRole('table', { name: /stops at each paragraph/ });
    expect(table.closest('[aria-busy]')!.getAttribute('aria-busy')).toBe('false');

    await userEvent.selectOptions(screen.getByLabelText('Chapter'), '12');
    await vi.waitFor(() => expect(answerChapter12).not.toBeNull());
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(table.closest('[aria-busy]')!.getAttribute('aria-busy')).toBe('true');
    answerChapter12!();
    await vi.waitFor(() => expect(screen.queryByText('Loading...')).toBeNull());
    expect(
      screen
        .getByRole('table', { name: /stops at each paragraph/ })
        .closest('[aria-busy]')!
        .getAttribute('aria-busy'),
    ).toBe('false');
  });

  it('says so when the chosen chapter is not a published chapter of the book', async () => {
    stubApi(() => apiAnswer({ detail: 'Chapter not found', code: 'not_found' }, 404));
    renderPage('/my/workspace/books/5/stats?chapter=99');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This chapter is not a published chapter of the book.',
    );
  });

  it('says at once that a chapter which is no id is not a chapter of the book', async () => {
    const calls = stubApi(() => apiAnswer(STATS));
    renderPage('/my/workspace/books/5/stats?chapter=abc');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This chapter is not a published chapter of the book.',
    );
    expect(calls).toEqual([]);
  });
});
