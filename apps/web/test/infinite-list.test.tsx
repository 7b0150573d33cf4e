import type { QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InfiniteList, nextOffset } from '../src/components/InfiniteList.tsx';
import { BooksPage } from '../src/features/books/components/BooksPage.tsx';
import {
  noMatchSentence,
  resultCount,
  SearchPage,
} from '../src/features/books/components/SearchPage.tsx';
import { createQueryClient } from '../src/lib/query.ts';
import { keys } from '../src/lib/query-keys.ts';
import { bookFixture } from './fixtures.ts';
import { expectLoadMoreKeepsFocus, expectLoadMoreLeavesMovedFocus, holdPage } from './load-more.ts';
import { renderRouter } from './render.tsx';

/** A controllable IntersectionObserver: tests decide how visible the observed element is. */
class FakeObserver {
  static instances: FakeObserver[] = [];
  readonly targets: Element[] = [];
  disconnected = false;
  readonly callback: IntersectionObserverCallback;
  readonly options: IntersectionObserverInit;
  constructor(callback: IntersectionObserverCallback, options: IntersectionObserverInit = {}) {
    this.callback = callback;
    this.options = options;
    FakeObserver.instances.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  disconnect() {
    this.disconnected = true;
  }
  unobserve() {}
  takeRecords() {
    return [];
  }
  show(ratio: number) {
    const entries = this.targets.map(
      (target) =>
        ({
          target,
          isIntersecting: ratio > 0,
          intersectionRatio: ratio,
        }) as IntersectionObserverEntry,
    );
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}
const liveObserver = () => FakeObserver.instances.filter((o) => !o.disconnected).at(-1);

beforeEach(() => {
  FakeObserver.instances = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
});
afterEach(() => vi.unstubAllGlobals());

describe('nextOffset', () => {
  it('asks for the next page after a full page, and stops after a short one', () => {
    const full = Array.from({ length: 10 }, (_, i) => i);
    expect(nextOffset(full, [full], 10)).toBe(10);
    expect(nextOffset(full, [full, full], 10)).toBe(20);
    expect(nextOffset([1, 2, 3], [full, [1, 2, 3]], 10)).toBeUndefined();
    expect(nextOffset([], [[]], 10)).toBeUndefined();
  });
});

describe('InfiniteList', () => {
  const renderList = (props: {
    hasMore: boolean;
    loading?: boolean;
    failed?: boolean;
    onLoadMore(): void;
  }) =>
    render(
      <InfiniteList
        label="Items"
        items={[1, 2, 3]}
        getKey={(i) => i}
        render={(i) => <span>item {i}</span>}
        loading={false}
        {...props}
      />,
    );

  it('observes the last item with a threshold of 0.8 and loads at 80% visibility', () => {
    const onLoadMore = vi.fn();
    renderList({ hasMore: true, onLoadMore });
    const observer = liveObserver()!;
    expect(observer.options.threshold).toBe(0.8);
    expect(observer.targets).toEqual([screen.getByText('item 3').closest('li')]);
    observer.show(0.5);
    expect(onLoadMore).not.toHaveBeenCalled();
    observer.show(0.8);
    expect(onLoadMore).toHaveBeenCalledOnce();
  });

  it('does not observe once there is nothing more', () => {
    renderList({ hasMore: false, onLoadMore: vi.fn() });
    expect(liveObserver()).toBeUndefined();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('does not observe while a page is loading, and its button keeps focus but asks nothing', () => {
    const onLoadMore = vi.fn();
    renderList({ hasMore: true, loading: true, onLoadMore });
    expect(liveObserver()).toBeUndefined();
    const button = screen.getByRole('button', { name: 'Loading...' });
    // Busy, not disabled: a disabled button would drop the keyboard's focus to the page.
    expect(button.getAttribute('aria-disabled')).toBe('true');
    button.focus();
    button.click();
    expect(document.activeElement).toBe(button);
    expect(onLoadMore).not.toHaveBeenCalled();
  });

  it('does not observe after a failed page: only the button asks again', () => {
    const onLoadMore = vi.fn();
    renderList({ hasMore: true, failed: true, onLoadMore });
    expect(liveObserver()).toBeUndefined();
    screen.getByRole('button', { name: 'Load more' }).click();
    expect(onLoadMore).toHaveBeenCalledOnce();
  });
});

/** The page at `path`, with the app's providers; `fetch` answers by URL. */
function renderPage(
  route: { path: string; element: React.ReactNode },
  path: string,
  answer: (url: URL) => Response | Promise<Response>,
  client?: QueryClient,
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/token') return Response.json({ access_token: null });
    return answer(url);
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter([route], { initialEntries: [path] });
  renderRouter(router, { client });
  return fetchMock;
}

/** The app's query client, retrying as it does but without waiting between tries. */
function quickRetryClient() {
  const client = createQueryClient();
  client.setDefaultOptions({
    queries: { ...client.getDefaultOptions().queries, retryDelay: 0 },
  });
  return client;
}

const offsetsAsked = (fetchMock: ReturnType<typeof renderPage>, pathname: string) =>
  fetchMock.mock.calls
    .map(([u]) => new URL(String(u), 'http://localhost'))
    .filter((u) => u.pathname === pathname)
    .map((u) => u.searchParams.get('offset'));

describe('All Books paging', () => {
  it('loads pages of 10 as the last card shows, and stops after a page with fewer than 10', async () => {
    const pages: Record<string, number> = { '0': 10, '10': 10, '20': 3 };
    const fetchMock = renderPage({ path: '/books', element: <BooksPage /> }, '/books', (url) => {
      const offset = url.searchParams.get('offset') ?? '0';
      expect(url.searchParams.get('limit')).toBe('10');
      const count = pages[offset] ?? 0;
      return Response.json(
        Array.from({ length: count }, (_, i) => bookFixture(Number(offset) + i + 1)),
      );
    });

    await screen.findByRole('link', { name: 'Book 10' });
    expect(screen.queryByRole('link', { name: 'Book 11' })).toBeNull();
    act(() => liveObserver()!.show(1));
    await screen.findByRole('link', { name: 'Book 20' });
    act(() => liveObserver()!.show(1));
    await screen.findByRole('link', { name: 'Book 23' });
    await waitFor(() =>
      expect(screen.getByText('You have reached the end of the list.')).toBeTruthy(),
    );
    expect(liveObserver()).toBeUndefined();
    expect(screen.queryByRole('button', { name: 'Load more books' })).toBeNull();
    const bookCalls = fetchMock.mock.calls.filter(([u]) => String(u).includes('/api/books'));
    expect(
      bookCalls.map(([u]) => new URL(String(u), 'http://localhost').searchParams.get('offset')),
    ).toEqual(['0', '10', '20']);
  });
});

describe('a failed next page', () => {
  it('is not asked for again when the last card shows, only from the button', async () => {
    let refuse = true;
    const fetchMock = renderPage({ path: '/books', element: <BooksPage /> }, '/books', (url) => {
      const offset = Number(url.searchParams.get('offset') ?? '0');
      if (offset === 10 && refuse)
        return Response.json(
          { detail: 'Too many requests', code: 'rate_limited' },
          { status: 429 },
        );
      const count = offset === 0 ? 10 : 3;
      return Response.json(Array.from({ length: count }, (_, i) => bookFixture(offset + i + 1)));
    });

    await screen.findByRole('link', { name: 'Book 10' });
    act(() => liveObserver()!.show(1));
    await screen.findByText('Could not load more books.');
    // The last card is still in view: a fresh observer would say so at once, and ask again.
    act(() => liveObserver()?.show(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(offsetsAsked(fetchMock, '/api/books')).toEqual(['0', '10']);
    expect(liveObserver()).toBeUndefined();

    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Load more books' }));
    await screen.findByRole('link', { name: 'Book 13' });
    expect(screen.queryByText('Could not load more books.')).toBeNull();
    expect(offsetsAsked(fetchMock, '/api/books')).toEqual(['0', '10', '10']);
  });

  it('of search results is not asked for again when the last card shows either', async () => {
    const fetchMock = renderPage(
      { path: '/books/search', element: <SearchPage /> },
      '/books/search?q=heron',
      (url) =>
        url.searchParams.has('offset')
          ? Response.json({ detail: 'Too many requests', code: 'rate_limited' }, { status: 429 })
          : Response.json({ books: Array.from({ length: 20 }, (_, i) => bookFixture(i + 1)) }),
    );
    await screen.findByText('20+ results');
    act(() => liveObserver()!.show(1));
    await screen.findByText('Could not load more results.');
    act(() => liveObserver()?.show(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(offsetsAsked(fetchMock, '/api/books/search')).toEqual([null, '20']);
    expect(screen.getByRole('button', { name: 'Load more results' })).toBeTruthy();
  });
});

describe('Search paging', () => {
  const searchRoute = { path: '/books/search', element: <SearchPage /> };
  const refused = () =>
    Response.json({ detail: 'offset is out of range', code: 'validation' }, { status: 400 });

  it("counts results as the spec says, with '+' while more can be loaded", () => {
    expect(resultCount(1, false)).toBe('1 result');
    expect(resultCount(7, false)).toBe('7 results');
    expect(resultCount(20, true)).toBe('20+ results');
    expect(noMatchSentence('heron')).toBe('Your search — heron — did not match any books.');
  });

  it('keeps the results it has and says so when a later page fails', async () => {
    renderPage(searchRoute, '/books/search?q=heron', (url) =>
      url.searchParams.has('offset')
        ? refused()
        : Response.json({ books: Array.from({ length: 20 }, (_, i) => bookFixture(i + 1)) }),
    );
    await screen.findByText('20+ results');
    screen.getByRole('button', { name: 'Load more results' }).click();
    await screen.findByText('Could not load more results.');
    expect(screen.getAllByRole('link', { name: /^Book \d+$/ })).toHaveLength(20);
  });

  it('shows a failed first page as no match (spec section 8)', async () => {
    renderPage(searchRoute, '/books/search?q=heron', refused);
    await screen.findByText(noMatchSentence('heron'));
  });

  it('caches no "no match" for a failed search, and asks again with Try again', async () => {
    const client = createQueryClient();
    let refuse = true;
    const fetchMock = renderPage(
      searchRoute,
      '/books/search?q=heron',
      () => (refuse ? refused() : Response.json({ books: [bookFixture(1)] })),
      client,
    );
    const said = await screen.findByRole('alert');
    expect(said.textContent).toBe(`${noMatchSentence('heron')} Try again`);
    const state = client.getQueryState(keys.bookSearch('heron', ''));
    expect(state?.status).toBe('error');
    expect(state?.data).toBeUndefined();

    refuse = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('1 result');
    expect(screen.queryByText(noMatchSentence('heron'))).toBeNull();
    expect(offsetsAsked(fetchMock, '/api/books/search')).toEqual([null, null]);
  });

  it('asks again by itself after a server failure, as every query does', async () => {
    let failures = 2;
    const fetchMock = renderPage(
      searchRoute,
      '/books/search?q=heron',
      (url) =>
        url.pathname === '/api/books/search' && failures-- > 0
          ? Response.json({ detail: 'Unavailable', code: 'unavailable' }, { status: 503 })
          : Response.json({ books: [bookFixture(1)] }),
      quickRetryClient(),
    );
    await screen.findByText('1 result');
    expect(screen.queryByText(noMatchSentence('heron'))).toBeNull();
    expect(offsetsAsked(fetchMock, '/api/books/search')).toEqual([null, null, null]);
  });
});

describe('keyboard focus on "Load more books"', () => {
  /** All Books in pages of 10, `total` in all; the page at offset 10 waits for `release`. */
  function renderBooks(total: number) {
    const { held, release } = holdPage();
    const fetchMock = renderPage({ path: '/books', element: <BooksPage /> }, '/books', (url) => {
      const offset = Number(url.searchParams.get('offset') ?? '0');
      const count = Math.min(10, total - offset);
      const page = () =>
        Response.json(Array.from({ length: count }, (_, i) => bookFixture(offset + i + 1)));
      return offset === 10 ? held.then(page) : page();
    });
    return {
      label: 'Load more books',
      item: (name: string) => screen.getByRole('link', { name }),
      release,
      asked: () => offsetsAsked(fetchMock, '/api/books'),
    };
  }

  it('stays on the busy button, asks once, and goes to the first book of the last page', async () => {
    await expectLoadMoreKeepsFocus({
      ...renderBooks(23),
      lastOfPages: ['Book 10', 'Book 20', 'Book 23'],
      // The first new book's title link.
      firstOfLast: 'Book 21',
      pages: ['0', '10', '20'],
    });
  });

  it('leaves the focus where the reader put it while the last page loaded', async () => {
    await expectLoadMoreLeavesMovedFocus({
      ...renderBooks(13),
      lastOfPages: ['Book 10', 'Book 13'],
      elsewhere: 'Book 2',
    });
  });
});
