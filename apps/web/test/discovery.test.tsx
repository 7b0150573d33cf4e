import type { SearchHit } from '@inkwell/contract';
import { BOOK_TAGS_MAX, FILTERED_HIDDEN_HEADER } from '@inkwell/contract/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Outlet, RouterProvider, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { purifySnippet, Snippet } from '../src/components/SafeHtml.tsx';
import { addTag, TagInput } from '../src/components/TagInput.tsx';
import { BooksPage } from '../src/features/books/components/BooksPage.tsx';
import { GenrePage } from '../src/features/books/components/GenrePage.tsx';
import { RecentWork } from '../src/features/authors/components/RecentWork.tsx';
import { HomePage } from '../src/features/home/components/HomePage.tsx';
import { MatchPassage, SearchPage } from '../src/features/books/components/SearchPage.tsx';
import {
  apiFilterQuery,
  NO_FILTERS,
  readFilters,
  writeFilters,
} from '../src/features/books/filters.ts';
import {
  LOCATED_FADE_MS,
  LOCATED_SHOWN_MS,
  useRestorePosition,
} from '../src/features/reader/restorePosition.ts';
import { hiddenCount } from '../src/lib/filtered.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { type SessionState } from '../src/lib/session.tsx';
import { accountFixture, authorFixture, bookFixture } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/*
 * Issue 21 in the web app: the filters' address state, the tag input's rules, the search
 * passage's sanitizing, the "Filtered: n books hidden" line and the reader's located paragraph.
 */

afterEach(() => vi.unstubAllGlobals());

const SIGNED_IN: SessionState = { status: 'in', token: 't', account: accountFixture(7, 'ann') };
const SIGNED_OUT: SessionState = { status: 'out', token: null, account: null };

/** The page at `path` with the app's providers; `fetch` answers by URL and is recorded. */
function renderAt(
  routes: RouteObject[],
  path: string,
  answer: (url: URL) => Response,
  session: SessionState = SIGNED_OUT,
) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
    answer(new URL(String(input), 'http://localhost')),
  );
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderRouter(router, { session });
  const calls = (pathname: string) =>
    fetchMock.mock.calls
      .map(([u]) => new URL(String(u), 'http://localhost'))
      .filter((u) => u.pathname === pathname);
  return { router, calls };
}

const booksRoute = { path: '/books', element: <BooksPage /> };

describe('filter state in the address', () => {
  it('reads what the API takes, normalizing tags and dropping what the app never writes', () => {
    const params = new URLSearchParams(
      'q=sea&tags=%20Slow%20%20burn%20,found%20family,slow%20BURN&exclude_warnings=abuse,nope' +
        '&rating=teen,adult&status=completed&min_words=-5&sort=relevance&genre=Fantasy',
    );
    expect(readFilters(params, 'books')).toEqual({
      ...NO_FILTERS,
      tags: ['Slow burn', 'found family'],
      exclude_warnings: ['abuse'],
      rating: ['teen'],
      status: ['completed'],
      genre: 'Fantasy',
    });
    // Search orders by relevance too; a genre page has its genre in the path.
    expect(readFilters(params, 'search').sort).toBe('relevance');
    expect(readFilters(params, 'genre').genre).toBe('');
  });

  it('writes the filters in place of the old ones, keeping the search words, dropping show anyway', () => {
    const params = new URLSearchParams('q=sea&tags=old&filters=off&sort=new');
    const next = writeFilters(params, {
      ...NO_FILTERS,
      tags: ['a b', 'c'],
      exclude_tags: ['d'],
      min_words: 1000,
    });
    expect(next.toString()).toBe('q=sea&tags=a+b%2Cc&exclude_tags=d&min_words=1000');
    expect(readFilters(next, 'search')).toEqual({
      ...NO_FILTERS,
      tags: ['a b', 'c'],
      exclude_tags: ['d'],
      min_words: 1000,
    });
  });

  it('asks the API with the same names, and with filters=off for show anyway', () => {
    const filters = { ...NO_FILTERS, tags: ['x'], exclude_warnings: ['abuse' as const] };
    expect(apiFilterQuery(filters, false)).toBe('tags=x&exclude_warnings=abuse');
    expect(apiFilterQuery(NO_FILTERS, true)).toBe('filters=off');
  });

  it('applies the panel to the address and the list, and the back button undoes it', async () => {
    const user = userEvent.setup();
    const { router, calls } = renderAt([booksRoute], '/books', (url) =>
      url.pathname === '/api/genres'
        ? Response.json({ genres: [{ id: 1, name: 'Fantasy' }] })
        : Response.json([bookFixture(1)]),
    );
    await screen.findByRole('link', { name: 'Book 1' });
    await user.click(screen.getByText('Filters'));
    await user.type(screen.getByLabelText('With all these tags'), '  Slow   burn {Enter}');
    await user.click(screen.getByRole('checkbox', { name: 'Graphic violence' }));
    await user.click(screen.getByRole('checkbox', { name: 'Completed' }));
    await user.selectOptions(screen.getByLabelText('Order'), 'words');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));

    await waitFor(() =>
      expect(router.state.location.search).toBe(
        '?tags=Slow+burn&exclude_warnings=graphic-violence&status=completed&sort=words',
      ),
    );
    await waitFor(() => expect(calls('/api/books')).toHaveLength(2));
    const asked = calls('/api/books')[1]!.searchParams;
    expect(asked.get('tags')).toBe('Slow burn');
    expect(asked.get('exclude_warnings')).toBe('graphic-violence');
    expect(asked.get('status')).toBe('completed');
    expect(asked.get('sort')).toBe('words');
    expect(asked.get('limit')).toBe('10');
    expect(screen.getByText('(3 set)')).toBeTruthy();

    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByText('(3 set)')).toBeNull();
    expect(screen.queryByRole('list', { name: 'With all these tags' })).toBeNull();
  });

  it('refuses a word count that is not a whole number, naming the field', async () => {
    const user = userEvent.setup();
    const { router } = renderAt([booksRoute], '/books?min_words=500', () => Response.json([]));
    await screen.findByText('No books match these filters.');
    const words = screen.getByLabelText('At least this many words');
    expect((words as HTMLInputElement).value).toBe('500');
    await user.clear(words);
    await user.type(words, 'lots');
    await user.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(screen.getByRole('alert').textContent).toMatch(/whole number of words/);
    expect(router.state.location.search).toBe('?min_words=500');
  });
});

describe('tag input', () => {
  it('keeps a tag as the server does and refuses duplicates regardless of case', () => {
    expect(addTag([], '  Slow \t  burn ', 20)).toEqual({ tags: ['Slow burn'] });
    expect(addTag(['Slow burn'], 'slow BURN', 20)).toEqual({
      problem: '“Slow burn” is already in the list.',
    });
    expect(addTag([], '   ', 20)).toEqual({ problem: 'A tag must not be empty.' });
    expect(addTag([], 'x'.repeat(51), 20)).toEqual({
      problem: 'A tag is at most 50 characters.',
    });
    const full = Array.from({ length: BOOK_TAGS_MAX }, (_, i) => `t${i}`);
    expect(addTag(full, 'one more', BOOK_TAGS_MAX)).toEqual({ problem: 'At most 20 tags.' });
  });

  function Harness({ initial = [] as string[] }) {
    const [tags, setTags] = useState(initial);
    return <TagInput label="Tags" tags={tags} onChange={setTags} max={BOOK_TAGS_MAX} />;
  }

  it('adds on Enter or comma, says why a duplicate is refused, removes with the chip button', async () => {
    const user = userEvent.setup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ tags: [] })),
    );
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, ' Found   family ,Slow burn{Enter}');
    const chips = () =>
      within(screen.getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(chips()).toEqual(['Found family×', 'Slow burn×']);
    await user.type(input, 'FOUND FAMILY{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('“Found family” is already in the list.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(chips()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Remove Found family' }));
    expect(chips()).toEqual(['Slow burn×']);
  });

  it('suggests the site’s tags for the typed prefix and adds one with the arrow keys', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      const q = new URL(String(input), 'http://localhost').searchParams.get('q');
      return Response.json({
        tags:
          q === 'sl'
            ? [
                { name: 'Slow burn', books: 12 },
                { name: 'Slice of life', books: 3 },
              ]
            : [],
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <Harness />
      </QueryClientProvider>,
    );
    const input = screen.getByRole('combobox', { name: 'Tags' });
    await user.type(input, 'sl');
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Slow burn (12)', 'Slice of life (3)']);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    await user.keyboard('{Enter}');
    expect(screen.getByRole('list', { name: 'Tags' }).textContent).toBe('Slice of life×');
    expect((input as HTMLInputElement).value).toBe('');
  });
});

describe('search passages', () => {
  it('keeps only <mark>, with no attribute, from a snippet', () => {
    expect(purifySnippet('a <mark class="x" onclick="alert(1)">lamp</mark> b')).toBe(
      'a <mark>lamp</mark> b',
    );
    expect(purifySnippet('<b>bold</b> <a href="javascript:alert(1)">link</a>')).toBe('bold link');
  });

  it('renders escaped markup as text and runs nothing, even if raw markup came through', () => {
    const ran = vi.fn();
    vi.stubGlobal('xssRan', ran);
    const { container } = render(
      <Snippet
        html={
          '&lt;script&gt;xssRan()&lt;/script&gt; the <mark>lamp</mark> ' +
          '<img src=x onerror="xssRan()"><script>xssRan()</script>'
        }
      />,
    );
    expect(container.textContent).toBe('<script>xssRan()</script> the lamp ');
    expect(container.querySelector('script, img, [onerror]')).toBeNull();
    expect(container.querySelector('mark')?.textContent).toBe('lamp');
    expect(ran).not.toHaveBeenCalled();
  });

  it('links to the chapter at the paragraph of the passage', () => {
    const hit: SearchHit = {
      ...bookFixture(4),
      match: {
        chapter_id: 9,
        chapter_title: 'The Storm',
        paragraph: 3,
        snippet: '<mark>gale</mark>',
      },
    };
    const router = createMemoryRouter([{ path: '/', element: <MatchPassage hit={hit} /> }]);
    render(<RouterProvider router={router} />);
    const link = screen.getByRole('link', { name: 'Read the passage in “The Storm”' });
    expect(link.getAttribute('href')).toBe('/books/4/chapters/9?paragraph=3');
  });

  it('names the chapter alone when the server found no passage to show', () => {
    const hit: SearchHit = {
      ...bookFixture(4),
      match: { chapter_id: 9, chapter_title: 'The Storm', paragraph: null, snippet: '' },
    };
    const router = createMemoryRouter([{ path: '/', element: <MatchPassage hit={hit} /> }]);
    const { container } = render(<RouterProvider router={router} />);
    expect(container.querySelector('.search-snippet')).toBeNull();
    const link = screen.getByRole('link', { name: 'Found in “The Storm”' });
    expect(link.getAttribute('href')).toBe('/books/4/chapters/9');
  });

  it('shows each hit with its passage on the search page', async () => {
    renderAt([{ path: '/books/search', element: <SearchPage /> }], '/books/search?q=gale', () =>
      Response.json({
        books: [
          {
            ...bookFixture(4),
            match: {
              chapter_id: 9,
              chapter_title: 'The Storm',
              paragraph: 3,
              snippet: 'a <mark>gale</mark>',
            },
          },
          { ...bookFixture(5), match: null },
        ],
      }),
    );
    await screen.findByText('2 results');
    expect(document.querySelectorAll('.search-snippet')).toHaveLength(1);
    expect(document.querySelector('.search-snippet mark')?.textContent).toBe('gale');
  });
});

describe('the hidden line', () => {
  it('reads the count from the answer header', () => {
    expect(hiddenCount(new Headers({ [FILTERED_HIDDEN_HEADER]: '3' }))).toBe(3);
    expect(hiddenCount(new Headers())).toBe(0);
    expect(hiddenCount(new Headers({ [FILTERED_HIDDEN_HEADER]: 'lots' }))).toBe(0);
  });

  const answerHiding = (url: URL) =>
    url.searchParams.get('filters') === 'off'
      ? Response.json([bookFixture(1), bookFixture(2)])
      : Response.json([bookFixture(1)], { headers: { [FILTERED_HIDDEN_HEADER]: '3' } });

  it('says how many books the saved filters hid, and shows them anyway on request', async () => {
    const user = userEvent.setup();
    const { router, calls } = renderAt([booksRoute], '/books', answerHiding, SIGNED_IN);
    const line = await screen.findByText(/Filtered: 3 books hidden/);
    expect(screen.queryByRole('link', { name: 'Book 2' })).toBeNull();
    await user.click(within(line).getByRole('button', { name: 'Show anyway' }));
    await screen.findByRole('link', { name: 'Book 2' });
    expect(router.state.location.search).toBe('?filters=off');
    expect(calls('/api/books').at(-1)!.searchParams.get('filters')).toBe('off');
    const off = screen.getByText(/Your filters are off on this page/);
    await user.click(within(off).getByRole('button', { name: 'Apply my filters' }));
    await screen.findByText(/Filtered: 3 books hidden/);
    expect(router.state.location.search).toBe('');
  });

  it('says nothing to a visitor, who has no saved filters', async () => {
    renderAt([booksRoute], '/books', answerHiding, SIGNED_OUT);
    await screen.findByRole('link', { name: 'Book 1' });
    expect(screen.queryByText(/Filtered:/)).toBeNull();
  });

  it('says a genre page is empty because of the filters, not for want of books', async () => {
    renderAt(
      [{ path: '/genres/:genre', element: <GenrePage /> }],
      '/genres/Fantasy',
      () => Response.json([], { headers: { [FILTERED_HIDDEN_HEADER]: '2' } }),
      SIGNED_IN,
    );
    await screen.findByText(/Filtered: 2 books hidden/);
    expect(screen.getByText('Your filters hide every book here.')).toBeTruthy();
    expect(screen.queryByText('No books in Fantasy yet.')).toBeNull();
  });

  it('says a search matched only books the filters hide, not that it matched nothing', async () => {
    renderAt(
      [{ path: '/books/search', element: <SearchPage /> }],
      '/books/search?q=heron',
      () => Response.json({ books: [] }, { headers: { [FILTERED_HIDDEN_HEADER]: '3' } }),
      SIGNED_IN,
    );
    await screen.findByText(/Filtered: 3 books hidden/);
    expect(screen.getByText('Your filters hide every book here.')).toBeTruthy();
    expect(screen.queryByText(/did not match any books/)).toBeNull();
  });
});

/** Home's author picks as the server answers them: no author of the month, these featured. */
const homePicks = (featured: unknown[]) =>
  Response.json({ author_of_the_month: null, rising_author: null, featured_authors: featured });

describe('show anyway on home', () => {
  it("brings back the muted author among home's author picks too", async () => {
    const muted = authorFixture(9, 'muted-author');
    const { router, calls } = renderAt(
      [{ path: '/', element: <HomePage /> }],
      '/',
      (url) => {
        const off = url.searchParams.get('filters') === 'off';
        if (url.pathname === '/api/home/authors') return homePicks(off ? [muted] : []);
        if (url.pathname === '/api/popular/books') return Response.json({ popular: [] });
        return Response.json([], { headers: { [FILTERED_HIDDEN_HEADER]: off ? '0' : '2' } });
      },
      SIGNED_IN,
    );
    await waitFor(() => expect(calls('/api/home/authors')).toHaveLength(1));
    expect(screen.queryByRole('link', { name: 'muted-author' })).toBeNull();
    await act(() => router.navigate('/?filters=off'));
    await screen.findByRole('link', { name: 'muted-author' });
    expect(calls('/api/home/authors').at(-1)!.searchParams.get('filters')).toBe('off');
  });
});

describe('the hidden counts on home', () => {
  it('count only the books that would have had a place on the page', async () => {
    const covered = (id: number) => bookFixture(id, { cover: `/uploads/${id}.jpg` });
    // Newest first: the exclusions take book 3 (shown on the page) and book 14 (beyond it).
    const everything = Array.from({ length: 16 }, (_, i) => covered(i + 1));
    const { calls } = renderAt(
      [{ path: '/', element: <HomePage /> }],
      '/',
      (url) => {
        const off = url.searchParams.get('filters') === 'off';
        if (url.pathname === '/api/home/authors') return homePicks([]);
        if (url.pathname === '/api/popular/books')
          return Response.json({ popular: [] }, { headers: { [FILTERED_HIDDEN_HEADER]: '1' } });
        // The e-books (completed books): none, none hidden.
        if (url.pathname === '/api/books') return Response.json([]);
        const left = off ? everything : everything.filter((b) => b.id !== 3 && b.id !== 14);
        return Response.json(left, { headers: { [FILTERED_HIDDEN_HEADER]: off ? '0' : '2' } });
      },
      SIGNED_IN,
    );
    const notices = await screen.findAllByText(/Filtered: 1 book hidden/);
    expect(notices).toHaveLength(2);
    expect(screen.getByRole('link', { name: /Book 11/ })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Book 3\b/ })).toBeNull();
    // Top books shows three: the server is asked to count among those three.
    expect(calls('/api/popular/books')[0]!.searchParams.get('limit')).toBe('3');
  });
});

describe("an author's recent chapters", () => {
  it('leave out the chapters of hidden books, say how many books, and show them anyway', async () => {
    const author = { id: 9, username: 'ann', first_name: '', last_name: '', biography: '' };
    const chapter = (id: number, bookId: number) => ({
      id,
      title: `Chapter ${id}`,
      book_id: bookId,
      book_title: `Book ${bookId}`,
      cover: null,
      chapter_order: 1,
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
    });
    const { calls } = renderAt(
      [
        {
          path: '/authors/ann',
          element: <Outlet context={author} />,
          children: [{ index: true, element: <RecentWork /> }],
        },
      ],
      '/authors/ann',
      (url) =>
        url.searchParams.get('filters') === 'off'
          ? Response.json([chapter(1, 1), chapter(2, 2)])
          : Response.json([chapter(1, 1)], { headers: { [FILTERED_HIDDEN_HEADER]: '1' } }),
      SIGNED_IN,
    );
    await screen.findByText(/Filtered: 1 book hidden/);
    expect(screen.getByRole('link', { name: 'Chapter 1' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Chapter 2' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Show anyway' }));
    await screen.findByRole('link', { name: 'Chapter 2' });
    expect(calls('/api/authors/9/chapters').at(-1)!.searchParams.get('filters')).toBe('off');
  });
});

/** A location of the chapter at ?paragraph=1, by its router key. */
const at = (key: string) => ({ key, pathname: '/books/1/chapters/2', search: '?paragraph=1' });

describe('the located paragraph', () => {
  it('scrolls to the paragraph a link names and marks it for a moment', () => {
    vi.useFakeTimers();
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const content = document.createElement('div');
    content.innerHTML = '<p>zero</p><p>one</p><p>two</p>';
    renderHook(() => useRestorePosition(content, 2, at('entry-a')));
    const block = content.children[2]!;
    expect(scroll).toHaveBeenCalledOnce();
    expect(block.getAttribute('data-located')).toBe('shown');
    expect(content.children[1]!.hasAttribute('data-located')).toBe(false);
    vi.advanceTimersByTime(LOCATED_SHOWN_MS);
    expect(block.getAttribute('data-located')).toBe('fading');
    vi.advanceTimersByTime(LOCATED_FADE_MS);
    expect(block.hasAttribute('data-located')).toBe(false);
  });

  it('scrolls there once per history entry: Back or a reload keeps where the reader got to', () => {
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const content = document.createElement('div');
    content.innerHTML = '<p>zero</p><p>one</p><p>two</p>';
    renderHook(() => useRestorePosition(content, 1, at('entry-b'))).unmount();
    expect(scroll).toHaveBeenCalledOnce();
    // The same entry again (Back to it): the router's scroll restoration decides.
    renderHook(() => useRestorePosition(content, 1, at('entry-b'))).unmount();
    expect(scroll).toHaveBeenCalledOnce();
    // Another entry with the same address (the link followed again) scrolls again.
    renderHook(() => useRestorePosition(content, 1, at('entry-c'))).unmount();
    expect(scroll).toHaveBeenCalledTimes(2);
  });

  it('on the entry a page load starts on, scrolls for a link opened, not for a reload', () => {
    const scroll = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const content = document.createElement('div');
    content.innerHTML = '<p>zero</p><p>one</p>';
    const load = (type: NavigationTimingType) =>
      vi
        .spyOn(performance, 'getEntriesByType')
        .mockReturnValue([{ type } as PerformanceNavigationTiming]);
    load('reload');
    renderHook(() => useRestorePosition(content, 1, at('default'))).unmount();
    expect(scroll).not.toHaveBeenCalled();
    load('navigate');
    renderHook(() => useRestorePosition(content, 1, at('default'))).unmount();
    expect(scroll).toHaveBeenCalledOnce();
  });
});
