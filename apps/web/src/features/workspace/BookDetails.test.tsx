import { QueryClient } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, bookFixture, stubApi } from '../../../test/fixtures.ts';
import { BookDetails } from './components/BookDetails.tsx';
import type { WorkspaceBookContext } from './components/BookWorkspace.tsx';
import { renderRouter } from '../../../test/render.tsx';

const GENRES = [
  { id: 1, name: 'Fiction' },
  { id: 4, name: 'Fantasy' },
];

/** Answers the details editor's calls, GET /api/genres with `genres`; records each path asked. */
function mockApi(genres: () => Response) {
  return stubApi((url) => {
    if (url.pathname === '/api/genres') return genres();
    if (url.pathname === '/api/books/3/genres') return apiAnswer({ genres: [GENRES[1]] });
    if (url.pathname === '/api/books/3/deleted-chapters') return apiAnswer({ chapters: [] });
    return apiAnswer({ detail: 'unexpected', code: 'x' }, 500);
  });
}

/** The details editor inside a book's workspace, which hands it the book. */
function renderDetails() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const context: WorkspaceBookContext = {
    book: bookFixture(3, { title: 'Dune' }),
    requestChapterDelete: () => {},
  };
  const router = createMemoryRouter(
    [
      {
        path: '/my/workspace/books/:bookId',
        element: <Outlet context={context} />,
        children: [{ index: true, element: <BookDetails /> }],
      },
    ],
    { initialEntries: ['/my/workspace/books/3'] },
  );
  renderRouter(router, { client });
}

describe('the genre editor of the book details', () => {
  it('says when the genres could not be loaded, and asks for them again on "Try again"', async () => {
    let failing = true;
    const calls = mockApi(() =>
      failing
        ? apiAnswer({ detail: 'Boom', code: 'internal' }, 500)
        : apiAnswer({ genres: GENRES }),
    );
    renderDetails();
    const panel = screen.getByRole('region', { name: 'Genres' });

    const alert = await within(panel).findByRole('alert');
    expect(alert.textContent).toBe('Could not load the genres. Try again');
    expect(within(panel).getByLabelText('Add a genre')).toHaveProperty('disabled', true);

    failing = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    const select = within(panel).getByLabelText('Add a genre');
    await vi.waitFor(() => expect(select).toHaveProperty('disabled', false));
    expect(within(panel).queryByRole('alert')).toBeNull();
    // Only the genres not attached yet are offered.
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a genre', 'Fiction']);
    expect(calls.filter((path) => path === '/api/genres')).toHaveLength(2);
  });

  it('keeps the focus on "Add Genre" while the genre is added, then gives it to the picker', async () => {
    let attached = [GENRES[1]!];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    stubApi(async (url, init) => {
      if (url.pathname === '/api/genres') return apiAnswer({ genres: GENRES });
      if (url.pathname === '/api/books/3/genres' && init?.method === 'POST') {
        await held;
        attached = [...attached, GENRES[0]!];
      }
      if (url.pathname === '/api/books/3/genres') return apiAnswer({ genres: attached });
      return apiAnswer({ chapters: [] });
    });
    renderDetails();
    const panel = screen.getByRole('region', { name: 'Genres' });
    const select = within(panel).getByLabelText('Add a genre');
    await vi.waitFor(() => expect(select).toHaveProperty('disabled', false));
    await userEvent.selectOptions(select, 'Fiction');
    await userEvent.tab();
    const button = within(panel).getByRole('button', { name: 'Add Genre' });
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('true'));
    expect(document.activeElement).toBe(button);

    release();
    expect(await within(panel).findByRole('button', { name: 'Remove Fiction' })).toBeTruthy();
    // Nothing chosen any more, the button is disabled: the picker has the focus, for another.
    // (jsdom would leave it on the disabled button; a browser drops it to <body>.)
    expect(button).toHaveProperty('disabled', true);
    expect(document.activeElement).toBe(select);
    expect(select).toHaveProperty('value', '');
  });

  it('says nothing is wrong while the genres load fine', async () => {
    mockApi(() => apiAnswer({ genres: GENRES }));
    renderDetails();
    const panel = screen.getByRole('region', { name: 'Genres' });
    const select = within(panel).getByLabelText('Add a genre');
    await vi.waitFor(() => expect(select).toHaveProperty('disabled', false));
    expect(within(panel).queryByRole('alert')).toBeNull();
  });
});

describe('the details form', () => {
  it('saves a tag typed without Enter with the rest', async () => {
    let sent: { tags?: string[] } | undefined;
    stubApi((url, init) => {
      if (url.pathname === '/api/books/3' && init?.method === 'PUT') {
        sent = JSON.parse(String(init.body)) as { tags: string[] };
        return apiAnswer(bookFixture(3, { title: 'Dune', tags: sent.tags }));
      }
      if (url.pathname === '/api/genres') return apiAnswer({ genres: GENRES });
      if (url.pathname === '/api/tags') return apiAnswer({ tags: [] });
      return apiAnswer({ genres: [], chapters: [] });
    });
    renderDetails();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Tags'), 'Desert{Enter}spice   trade');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await vi.waitFor(() => expect(sent?.tags).toEqual(['Desert', 'spice trade']));
  });
});
