import { render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, matchRoutes, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../src/app/router.tsx';
import { pagePreloads } from '../src/app/pagePreloads.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { ToastProvider } from '../src/components/toasts.tsx';
import { AppearanceProvider } from '../src/lib/appearance.tsx';
import { SessionProvider, useSession } from '../src/lib/session.tsx';
import { moveBlockingScriptsLast } from '../vite/blocking-scripts-last.ts';
import { bookFixture, chapterFixture } from './fixtures.ts';

/** A page path with its `:params` filled in with ids. */
const fill = (pattern: string, ids: Record<string, number>) =>
  pattern.replace(/:(\w+)/g, (_, name: string) => String(ids[name]));

const BOOK = bookFixture(12, { title: 'A Book' });
const CHAPTER = chapterFixture(345, 12);

/** What the API would answer for the reader's and the book page's reads. */
function answerFor(url: string): unknown {
  if (url.endsWith('/chapters')) return { chapters: [CHAPTER] };
  if (url.endsWith('/announcements')) return { announcements: [] };
  if (url.includes('/api/chapters/')) return { ...CHAPTER, content: '<p>Hello there.</p>' };
  if (url.includes('/api/books/')) return BOOK;
  return {};
}

/** Records the URLs the app's API client asks for, answering each as the API would. */
function recordFetches() {
  const urls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    // Preloads are reads: a write the page sends (a visitor's view beacon) is not one of them.
    if ((init?.method ?? 'GET') === 'GET') urls.push(String(input));
    return Response.json(answerFor(String(input)));
  });
  return urls;
}

describe('page preloads (decision 0016)', () => {
  afterEach(() => {
    document.head.querySelectorAll('meta[name="inkwell-session"]').forEach((m) => m.remove());
  });

  it('names pages the router has, with the parameters their fetches use', () => {
    const routes = appRoutes(createQueryClient());
    for (const page of pagePreloads) {
      const params = [...page.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const ids = Object.fromEntries(params.map((name, i) => [name, 10 + i]));
      const matches = matchRoutes(routes, fill(page.path, ids));
      const leaf = matches?.at(-1);
      expect(leaf?.route.path, page.path).not.toBe('*');
      expect(leaf?.route.lazy, page.path).toBeDefined();
      for (const fetch of page.fetches) {
        for (const [, name] of fetch.matchAll(/:(\w+)/g)) expect(params, fetch).toContain(name);
      }
    }
  });

  it.each(pagePreloads.map((page) => [page.path, page]))(
    'lists exactly the first requests of %s, as its route renders',
    async (_, page) => {
      const ids = { bookId: 12, chapterId: 345 };
      const url = fill(page.path, ids);
      const client = createQueryClient();
      // The page's own route object (its lazy module and loader), without the shell around it,
      // whose requests (sidebar, notifications) are not the page's.
      const route = matchRoutes(appRoutes(client), url)!.at(-1)!.route;
      const urls = recordFetches();
      render(
        <QueryClientProvider client={client}>
          <SessionProvider initial={{ status: 'out', token: null, account: null }}>
            <AppearanceProvider>
              <ToastProvider>
                <RouterProvider
                  router={createMemoryRouter([{ ...route, path: page.path }], {
                    initialEntries: [url],
                  })}
                />
              </ToastProvider>
            </AppearanceProvider>
          </SessionProvider>
        </QueryClientProvider>,
      );
      const expected = page.fetches.map((f) => fill(f, ids)).sort();
      await waitFor(() => expect([...new Set(urls)].sort()).toEqual(expected));
      // The page is up, and asks for nothing else.
      expect((await screen.findAllByText('A Book')).length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(urls.sort()).toEqual(expected);
    },
  );

  it('moves parser-blocking scripts to the end of <head>, after the app’s own tags', () => {
    const built = [
      '<head>',
      '    <title>Inkwell</title>',
      '    <script src="/theme-init.js"></script>',
      '    <script type="module" crossorigin src="/assets/index.js"></script>',
      '    <script async src="/a.js"></script>',
      '    <link rel="stylesheet" crossorigin href="/assets/index.css">',
      '  </head>',
      '  <body><script src="/in-body.js"></script></body>',
    ].join('\n');
    expect(moveBlockingScriptsLast(built)).toBe(
      [
        '<head>',
        '    <title>Inkwell</title>',
        '    <script type="module" crossorigin src="/assets/index.js"></script>',
        '    <script async src="/a.js"></script>',
        '    <link rel="stylesheet" crossorigin href="/assets/index.css">',
        '    <script src="/theme-init.js"></script>',
        '  </head>',
        '  <body><script src="/in-body.js"></script></body>',
      ].join('\n'),
    );
  });
});

function Status() {
  return <p>{useSession().state.status}</p>;
}

describe('session at start', () => {
  afterEach(() => {
    document.head.querySelectorAll('meta[name="inkwell-session"]').forEach((m) => m.remove());
  });

  it('starts signed out without asking /token when the page says there is no session', async () => {
    const meta = document.createElement('meta');
    meta.name = 'inkwell-session';
    meta.content = 'none';
    document.head.append(meta);
    const urls = recordFetches();
    render(
      <SessionProvider>
        <Status />
      </SessionProvider>,
    );
    expect(screen.getByText('out')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 20));
    expect(urls).toEqual([]);
  });

  it('says when someone else is signed in, so answers asked as the visitor are asked again', async () => {
    const account = { id: 7, username: 'ann' };
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) =>
      String(input) === '/token'
        ? Response.json({ access_token: 't', token_type: 'bearer', account })
        : Response.json({}),
    );
    const changed = vi.fn();
    let login: (u: string, p: string) => Promise<void> = async () => {};
    function Login() {
      login = useSession().login;
      return null;
    }
    render(
      <SessionProvider
        initial={{ status: 'out', token: null, account: null }}
        onAccountChange={changed}
      >
        <Login />
        <Status />
      </SessionProvider>,
    );
    expect(changed).not.toHaveBeenCalled();
    await login('ann', 'pw');
    await waitFor(() => expect(screen.getByText('in')).toBeTruthy());
    expect(changed).toHaveBeenCalledTimes(1);
  });

  it('asks /token otherwise (a session cookie may be there)', async () => {
    const urls = recordFetches();
    render(
      <SessionProvider>
        <Status />
      </SessionProvider>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('out')).toBeTruthy());
    expect(urls).toEqual(['/token']);
  });
});
