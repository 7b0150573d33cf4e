import { render, screen, waitFor } from '@testing-library/react';
import { matchRoutes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appRoutes } from '../src/app/router.tsx';
import { pagePreloads } from '../src/app/pagePreloads.ts';
import { prefetchReader } from '../src/features/reader/api/reader.ts';
import { bookChaptersQuery, bookQuery, createQueryClient } from '../src/lib/query.ts';
import { SessionProvider, useSession } from '../src/lib/session.tsx';
import { moveBlockingScriptsLast } from '../vite/blocking-scripts-last.ts';

/** A page path with its `:params` filled in with ids. */
const fill = (pattern: string, ids: Record<string, number>) =>
  pattern.replace(/:(\w+)/g, (_, name: string) => String(ids[name]));

/** Records the URLs the app's API client asks for, answering each with an empty JSON body. */
function recordFetches() {
  const urls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    urls.push(String(input));
    const body = String(input).endsWith('/chapters') ? { chapters: [] } : {};
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
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

  it("lists exactly the reader's first requests", async () => {
    const reader = pagePreloads.find((p) => p.module === 'src/app/routes/reader.tsx')!;
    const urls = recordFetches();
    await prefetchReader(createQueryClient(), 12, 345);
    const expected = reader.fetches.map((f) => fill(f, { bookId: 12, chapterId: 345 }));
    expect(urls.sort()).toEqual(expected.sort());
  });

  it("lists exactly the book page's first requests", async () => {
    const bookPage = pagePreloads.find((p) => p.path === '/books/:bookId')!;
    const urls = recordFetches();
    const client = createQueryClient();
    await Promise.all([client.fetchQuery(bookQuery(7)), client.fetchQuery(bookChaptersQuery(7))]);
    expect(urls.sort()).toEqual(bookPage.fetches.map((f) => fill(f, { bookId: 7 })).sort());
  });

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
