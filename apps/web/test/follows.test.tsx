import type { Book, FollowedBook, ListedUser } from '@inkwell/contract';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { FollowingPage } from '../src/app/FollowingPage.tsx';
import { ToastProvider } from '../src/components/toasts.tsx';
import { BookFollowButton } from '../src/features/books/components/BookFollowButton.tsx';
import { UserListCard } from '../src/features/settings/components/UserLists.tsx';
import { bookQuery, createQueryClient } from '../src/lib/query.ts';
import { SessionProvider, type SessionState } from '../src/lib/session.tsx';
import { accountFixture, bookFixture } from './fixtures.ts';

/** Issue 19 in the web app: following a book, the Following page's tabs, blocks and mutes. */

const ACCOUNT = accountFixture(7, 'bob');
const SIGNED_IN: SessionState = { status: 'in', token: 'token', account: ACCOUNT };
const SIGNED_OUT: SessionState = { status: 'out', token: null, account: null };

type Answer = (url: URL, init?: RequestInit) => Response | Promise<Response>;

function Where() {
  const location = useLocation();
  return <output data-testid="where">{location.pathname + location.search}</output>;
}

function renderAt(element: ReactNode, answer: Answer, session = SIGNED_IN, path = '/') {
  const fetch = vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async (input, init) =>
      answer(new URL(String(input), 'http://localhost'), init),
    );
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <SessionProvider initial={session}>
        <ToastProvider>
          <RouterProvider
            router={createMemoryRouter(
              [
                {
                  path: '/',
                  element: (
                    <>
                      {element}
                      <Where />
                    </>
                  ),
                },
              ],
              { initialEntries: [path] },
            )}
          />
        </ToastProvider>
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { fetch, client };
}

const refuse = (status: number, detail: string) => Response.json({ detail, code: 'x' }, { status });

describe('the Follow button of a book', () => {
  const book: Book = bookFixture(3, { followers: 4, following: false });

  it('follows on click: pressed, the count from the answer written into the book, one POST', async () => {
    function FromCache() {
      const cached = useQuery(bookQuery(3));
      return cached.data ? <BookFollowButton book={cached.data} /> : null;
    }
    const { fetch } = renderAt(<FromCache />, (url, init) =>
      url.pathname === '/api/books/3' && (init?.method ?? 'GET') === 'GET'
        ? Response.json(book)
        : url.pathname === '/api/books/3/follow' && init?.method === 'POST'
          ? Response.json({ book_id: 3, following: true, followers: 5 })
          : refuse(500, 'unexpected'),
    );
    const button = await screen.findByRole('button', { name: 'Follow' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByText('4 followers')).toBeTruthy();
    await userEvent.click(button);
    const pressed = await screen.findByRole('button', { name: 'Unfollow' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('5 followers')).toBeTruthy();
    // The book was not asked again: the answer of the POST is the new state.
    expect(
      fetch.mock.calls.map(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}`),
    ).toEqual(['GET /api/books/3', 'POST /api/books/3/follow']);
  });

  it('shows Unfollow, pressed, for a follower, and the error when unfollowing fails', async () => {
    renderAt(<BookFollowButton book={{ ...book, following: true, followers: 1 }} />, () =>
      refuse(500, 'boom'),
    );
    const button = screen.getByRole('button', { name: 'Unfollow' });
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('1 follower')).toBeTruthy();
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Could not unfollow this book. Try again.',
    );
  });

  it('keeps the keyboard on the button while the follow is on its way, and sends it once', async () => {
    let answer: (response: Response) => void = () => {};
    const { fetch } = renderAt(
      <BookFollowButton book={book} />,
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const button = screen.getByRole('button', { name: 'Follow' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button);
    await userEvent.keyboard('{Enter}');
    expect(fetch).toHaveBeenCalledTimes(1);
    answer(Response.json({ book_id: 3, following: true, followers: 5 }));
    await waitFor(() => expect(button.getAttribute('aria-disabled')).toBe('false'));
    expect(document.activeElement).toBe(button);
  });

  it("shows the author's refusal (a block) as it is", async () => {
    renderAt(<BookFollowButton book={book} />, () => refuse(403, 'The author has blocked you'));
    await userEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The author has blocked you');
  });

  it('is disabled, with the reason, for a visitor and for the author', () => {
    renderAt(<BookFollowButton book={book} />, () => refuse(500, ''), SIGNED_OUT);
    const visitor = screen.getByRole('button', { name: 'Follow' }) as HTMLButtonElement;
    expect(visitor.disabled).toBe(true);
    expect(visitor.getAttribute('aria-pressed')).toBeNull();
    expect(document.getElementById(visitor.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Sign in to follow this book.',
    );
  });

  it('is disabled for the book of the signed-in author', () => {
    renderAt(<BookFollowButton book={{ ...book, author_id: ACCOUNT.id }} />, () => refuse(500, ''));
    const own = screen.getByRole('button', { name: 'Follow' }) as HTMLButtonElement;
    expect(own.disabled).toBe(true);
    expect(document.getElementById(own.getAttribute('aria-describedby')!)?.textContent).toMatch(
      /your book/,
    );
  });
});

describe('the Following page', () => {
  const followed: FollowedBook = { ...bookFixture(5, { title: 'Emma' }), chapters: 3, unread: 2 };
  const answer: Answer = (url) =>
    url.pathname === '/api/my/follows'
      ? Response.json({ authors: [] })
      : url.pathname === '/api/my/followed-books'
        ? Response.json({ books: [followed, { ...bookFixture(6), chapters: 1, unread: 0 }] })
        : refuse(404, '');

  it('has Authors and Books tabs; the arrow keys move between them and the URL keeps the tab', async () => {
    renderAt(<FollowingPage />, answer);
    const tabs = within(screen.getByRole('tablist', { name: 'What you follow' })).getAllByRole(
      'tab',
    );
    expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('aria-selected')])).toEqual([
      ['Authors', 'true'],
      ['Books', 'false'],
    ]);
    expect(tabs[1]!.tabIndex).toBe(-1);
    expect(
      await screen.findByText('You are not following anyone yet.', { exact: false }),
    ).toBeTruthy();
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs[0]!.id);

    tabs[0]!.focus();
    await userEvent.keyboard('{ArrowRight}');
    const books = screen.getByRole('tab', { name: 'Books' });
    expect(books.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(books);
    expect(screen.getByTestId('where').textContent).toBe('/?tab=books');
    expect(await screen.findByText('2 unread of 3')).toBeTruthy();
    expect(screen.getByText('All 1 read')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Emma' })).toBeTruthy();

    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Authors' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('opens on the Books tab from the URL, with an empty state', async () => {
    renderAt(
      <FollowingPage />,
      (url) =>
        url.pathname === '/api/my/followed-books' ? Response.json({ books: [] }) : refuse(404, ''),
      SIGNED_IN,
      '/?tab=books',
    );
    expect(screen.getByRole('tab', { name: 'Books' }).getAttribute('aria-selected')).toBe('true');
    expect(
      await screen.findByText('You are not following any book yet.', { exact: false }),
    ).toBeTruthy();
  });
});

describe('blocks and mutes in Settings', () => {
  const ann: ListedUser = {
    id: 2,
    username: 'ann',
    first_name: 'Ann',
    last_name: 'Lee',
    avatar: null,
    since: '2026-01-01T00:00:00Z',
  };

  it('says a mute was taken off in its own words', async () => {
    let users = [ann];
    renderAt(<UserListCard kind="mutes" />, async (url, init) => {
      if (url.pathname === '/api/my/mutes/ann' && init?.method === 'DELETE') users = [];
      if (url.pathname.startsWith('/api/my/mutes')) return Response.json({ users });
      return refuse(500, 'unexpected');
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Unmute ann' }));
    expect(await screen.findByText('Unmuted ann.')).toBeTruthy();
  });

  it('lists, removes and adds by username, and says why an addition failed', async () => {
    let users = [ann];
    const { fetch } = renderAt(<UserListCard kind="blocks" />, async (url, init) => {
      if (url.pathname === '/api/my/blocks' && (init?.method ?? 'GET') === 'GET')
        return Response.json({ users });
      if (url.pathname === '/api/my/blocks/ann' && init?.method === 'DELETE') {
        users = [];
        return Response.json({ users });
      }
      if (url.pathname === '/api/my/blocks' && init?.method === 'POST') {
        const { username } = JSON.parse(String(init.body)) as { username: string };
        if (username === 'ghost') return refuse(404, 'User not found');
        users = [{ ...ann, id: 3, username, first_name: '', last_name: '' }];
        return Response.json({ users });
      }
      return refuse(500, 'unexpected');
    });
    expect(await screen.findByRole('link', { name: 'Ann Lee' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Unblock ann' }));
    expect(await screen.findByText('You have not blocked anyone.')).toBeTruthy();
    expect(screen.getByText('Unblocked ann.').getAttribute('role')).toBe('status');
    // The button pressed went with its row: the keyboard is back at the list's heading.
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Blocked users' }));

    const input = screen.getByLabelText('Username to block');
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a username.');
    await userEvent.type(input, 'ghost');
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect((await screen.findByRole('alert')).textContent).toBe('User not found');
    expect(input.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);

    await userEvent.clear(input);
    await userEvent.type(input, 'carl{Enter}');
    expect(await screen.findByRole('link', { name: 'carl' })).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(2);
  });
});
