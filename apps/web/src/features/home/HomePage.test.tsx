import type { HomePicks } from '@inkwell/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { apiAnswer, authorFixture, bookFixture, stubApi } from '../../../test/fixtures.ts';
import { ToastProvider, ToastRegion } from '../../components/toasts.tsx';
import { SessionProvider } from '../../lib/session.tsx';
import { HomePage } from './components/HomePage.tsx';

const PICKS: HomePicks = {
  author_of_the_month: authorFixture(1, 'ann'),
  rising_author: authorFixture(2, 'bea'),
  featured_authors: [authorFixture(3, 'cal')],
};

/** Answers the home page's calls, GET /api/home/authors with `picks`; records each path asked. */
function mockApi(picks: () => Response) {
  return stubApi((url) => {
    if (url.pathname === '/api/home/authors') return picks();
    if (url.pathname === '/api/recent/books') return apiAnswer([]);
    if (url.pathname === '/api/popular/books') return apiAnswer({ popular: [] });
    if (url.pathname === '/api/books') return apiAnswer([]);
    return apiAnswer({ detail: 'unexpected', code: 'x' }, 500);
  });
}

function renderHome() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/home', element: <HomePage /> }], {
    initialEntries: ['/home'],
  });
  render(
    <QueryClientProvider client={client}>
      <SessionProvider initial={{ status: 'out', token: null, account: null }}>
        <ToastProvider>
          <RouterProvider router={router} />
          <ToastRegion />
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
}

const section = (name: string) => screen.getByRole('region', { name });

describe('the author picks of the home page', () => {
  it('says the picks could not be loaded, not "No author found.", and asks again on "Try again"', async () => {
    let failing = true;
    const calls = mockApi(() =>
      failing ? apiAnswer({ detail: 'Boom', code: 'internal' }, 500) : apiAnswer(PICKS),
    );
    renderHome();

    const failures = {
      'Author of the month': 'Could not load the author of the month. Try again',
      'Rising author': 'Could not load the rising author. Try again',
      'Featured authors': 'Could not load the featured authors. Try again',
    };
    for (const [title, text] of Object.entries(failures)) {
      expect((await within(section(title)).findByRole('alert')).textContent).toBe(text);
    }
    expect(screen.queryByText('No author found.')).toBeNull();
    // The book lists, which did load, still say they are empty.
    expect(within(section('Recent books')).getByText('No books yet.')).toBeTruthy();

    failing = false;
    const again = within(section('Rising author')).getByRole('button', { name: 'Try again' });
    await userEvent.click(again);
    expect(await within(section('Author of the month')).findByText('ann')).toBeTruthy();
    expect(within(section('Rising author')).getByText('bea')).toBeTruthy();
    expect(within(section('Featured authors')).getByText('cal')).toBeTruthy();
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(calls.filter((path) => path === '/api/home/authors')).toHaveLength(2);
  });

  it('still says "No author found." where no author is picked', async () => {
    mockApi(() =>
      apiAnswer({ author_of_the_month: null, rising_author: null, featured_authors: [] }),
    );
    renderHome();
    for (const title of ['Author of the month', 'Rising author', 'Featured authors']) {
      expect(await within(section(title)).findByText('No author found.')).toBeTruthy();
    }
    expect(screen.queryAllByRole('alert')).toEqual([]);
  });
});

/** The home page's answers with one completed book, The Whole Tide (5), and no other books. */
function homeWithOneEbook(url: URL) {
  if (url.pathname === '/api/books')
    return apiAnswer([bookFixture(5, { title: 'The Whole Tide', status: 'completed' })]);
  if (url.pathname === '/api/home/authors') return apiAnswer(PICKS);
  if (url.pathname === '/api/recent/books') return apiAnswer([]);
  return apiAnswer({ popular: [] });
}

describe('the e-books of the home page', () => {
  it('lists the most read completed books, each with its EPUB', async () => {
    const calls = stubApi(homeWithOneEbook);
    renderHome();
    const ebooks = section('E-books');
    const download = await within(ebooks).findByRole('link', {
      name: 'Download The Whole Tide as EPUB',
    });
    expect(download.getAttribute('href')).toBe('/api/books/5/export.epub');
    expect(within(ebooks).getByRole('link', { name: 'The Whole Tide' }).getAttribute('href')).toBe(
      '/books/5',
    );
    expect(calls).toContain('/api/books?status=completed&sort=popular&limit=4');
  });

  it("says why an EPUB could not be made, in the server's words, and can be tried again", async () => {
    const changed = 'The book changed while its EPUB was being made; please try again';
    const exports = stubApi((url) =>
      url.pathname === '/api/books/5/export.epub'
        ? apiAnswer({ detail: changed, code: 'unavailable' }, 503)
        : homeWithOneEbook(url),
    );
    renderHome();
    const download = await within(section('E-books')).findByRole('link', {
      name: 'Download The Whole Tide as EPUB',
    });
    await userEvent.click(download);
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain(changed);
    expect(toast.closest('[aria-live]')?.getAttribute('aria-live')).toBe('polite');
    expect(download.getAttribute('aria-disabled')).toBeNull();
    await userEvent.click(download);
    await waitFor(() => expect(screen.getAllByTestId('toast')).toHaveLength(2));
    expect(exports.filter((path) => path.endsWith('/export.epub'))).toHaveLength(2);
  });

  it('says when there are none, and when they could not be loaded', async () => {
    let failing = true;
    stubApi((url) => {
      if (url.pathname === '/api/books')
        return failing ? apiAnswer({ detail: 'Boom', code: 'internal' }, 500) : apiAnswer([]);
      if (url.pathname === '/api/home/authors') return apiAnswer(PICKS);
      if (url.pathname === '/api/recent/books') return apiAnswer([]);
      return apiAnswer({ popular: [] });
    });
    renderHome();
    const ebooks = section('E-books');
    const alert = await within(ebooks).findByRole('alert');
    expect(alert.textContent).toBe('Could not load the e-books. Try again');
    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(ebooks).findByText('No completed books yet.')).toBeTruthy();
  });
});
