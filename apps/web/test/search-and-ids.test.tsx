import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Header } from '../src/app/layouts/Header.tsx';
import { BookPage } from '../src/features/books/components/BookPage.tsx';
import { SearchPage } from '../src/features/books/components/SearchPage.tsx';
import { routeId } from '../src/lib/paths.ts';
import { bookFixture } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/** Issue 23 §4 and §5 as the web app sees them: ids read as the API reads them; any search text. */

function renderAt(routes: { path: string; element: ReactNode }[], path: string) {
  const asked: URL[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    asked.push(url);
    if (url.pathname === '/api/books/search') return Response.json({ books: [bookFixture(1)] });
    if (url.pathname === '/api/books/16') return Response.json(bookFixture(16));
    if (url.pathname === '/api/books/16/chapters') return Response.json({ chapters: [] });
    return Response.json({ detail: 'Not found', code: 'not_found' }, { status: 404 });
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderRouter(router);
  return { asked, router };
}

describe('ids in the web app', () => {
  it('reads a route id only in its one spelling', () => {
    expect(routeId('16')).toBe(16);
    for (const spelling of [
      '0x10',
      '016',
      '+16',
      '16.0',
      '1e1',
      ' 16',
      '0',
      '2147483648',
      '',
      undefined,
    ])
      expect(routeId(spelling), String(spelling)).toBeNaN();
  });

  it('shows Book not found for /books/0x10 and never asks for book 16', async () => {
    const { asked } = renderAt([{ path: '/books/:bookId', element: <BookPage /> }], '/books/0x10');
    await screen.findByRole('heading', { name: 'Book not found' });
    expect(asked.map((u) => u.pathname).filter((p) => p.startsWith('/api/books/16'))).toEqual([]);
  });

  it('still shows book 16 at /books/16', async () => {
    renderAt([{ path: '/books/:bookId', element: <BookPage /> }], '/books/16');
    await screen.findByRole('heading', { level: 1, name: 'Book 16' });
  });
});

describe('search takes any text', () => {
  it('searches for pasted text without its controls, cut to 500 characters, and shows no error', async () => {
    const pasted = `heron\u0000\u0007\t${'x'.repeat(700)}`;
    const { asked } = renderAt(
      [{ path: '/books/search', element: <SearchPage /> }],
      `/books/search?${new URLSearchParams({ q: pasted })}`,
    );
    await screen.findByText('1 result');
    const q = asked.find((u) => u.pathname === '/api/books/search')!.searchParams.get('q')!;
    expect(q.startsWith('heron x')).toBe(true);
    // eslint-disable-next-line no-control-regex -- control characters are what must be gone
    expect(q).not.toMatch(/[\u0000-\u001f]/);
    expect(Array.from(q).length).toBeLessThanOrEqual(500);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('sends what is typed in the header box as a clean query', async () => {
    const { router } = renderAt(
      [
        { path: '/', element: <Header sidebarOpen={false} onToggleSidebar={() => {}} /> },
        { path: '/books/search', element: <SearchPage /> },
      ],
      '/',
    );
    const box = screen.getByRole('searchbox', { name: 'Search for books' });
    await userEvent.click(box);
    await userEvent.paste(`  heron\u0000 lighthouse\u001b  `);
    await userEvent.keyboard('{Enter}');
    expect(router.state.location.pathname).toBe('/books/search');
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('heron lighthouse');
  });
});
