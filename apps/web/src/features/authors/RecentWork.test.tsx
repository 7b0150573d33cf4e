import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet } from 'react-router';
import { describe, expect, it } from 'vitest';
import { apiAnswer, stubApi } from '../../../test/fixtures.ts';
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
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
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
  return { offsets, release: () => release() };
}

describe('keyboard focus on "Load More" of recent chapters', () => {
  it('stays on the busy button, asks once, and goes to the first chapter of the last page', async () => {
    const { offsets, release } = renderRecentWork(23);
    await screen.findByRole('link', { name: 'Chapter 10' });
    const more = screen.getByRole('button', { name: 'Load More' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    // Busy, not disabled: it says so, keeps the focus and asks nothing more.
    await waitFor(() => expect(more.textContent).toBe('Loading...'));
    expect(more.getAttribute('aria-disabled')).toBe('true');
    expect(more).toHaveProperty('disabled', false);
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(more);
    expect(offsets()).toEqual(['0', '10']);

    release();
    await screen.findByRole('link', { name: 'Chapter 20' });
    // More pages to come: the button stays, and so does the focus.
    await waitFor(() => expect(more.textContent).toBe('Load More'));
    expect(document.activeElement).toBe(more);

    await userEvent.keyboard('{Enter}');
    await screen.findByRole('link', { name: 'Chapter 23' });
    expect(screen.queryByRole('button', { name: /Load More|Loading/ })).toBeNull();
    // The first new chapter's link, not <body>.
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Chapter 21' })),
    );
    expect(offsets()).toEqual(['0', '10', '20']);
  });

  it('leaves the focus where the reader put it while the last page loaded', async () => {
    const { release } = renderRecentWork(13);
    await screen.findByRole('link', { name: 'Chapter 10' });
    const more = screen.getByRole('button', { name: 'Load More' });
    more.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(more.textContent).toBe('Loading...'));
    const elsewhere = screen.getByRole('link', { name: 'Chapter 2' });
    elsewhere.focus();

    release();
    await screen.findByRole('link', { name: 'Chapter 13' });
    expect(screen.queryByRole('button', { name: /Load More|Loading/ })).toBeNull();
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(document.activeElement).toBe(elsewhere);
  });
});
