/**
 * Pages whose first visit should not wait for the app to ask for what it needs
 * (docs/decisions/0016-page-preloads.md). For each: the route module, whose chunks the page cannot
 * render without, and the API reads the page makes as soon as it renders. The build writes this
 * list, with the chunks' file names, into dist/page-preloads.json (vite/page-preloads.ts); the
 * server adds `<link rel="modulepreload">` and `<link rel="preload" as="fetch">` for the matching
 * page to the HTML it answers, so the chunks and the data download beside the entry script instead
 * of one round trip after another.
 *
 * `:name` stands for an id in its one spelling (packages/contract/src/ids.ts: decimal digits, no
 * leading zero, at most 2^31-1), as the API's path schemas and the app's routes (lib/paths.ts
 * routeId) read it; any other value gets no preloads, as its page shows "not found". A fetch must be exactly the URL
 * the page requests, or the browser downloads it twice: e2e/page-load.spec.ts checks that every
 * preload is used.
 *
 * Plain data, no imports: vite.config.ts reads it at build time.
 */
export interface PagePreload {
  /** The router's path of the page. */
  path: string;
  /** The route module, as Vite names it (relative to apps/web). */
  module: string;
  /** API paths (below the base) the page reads at once, for visitors and readers alike. */
  fetches: string[];
}

export const pagePreloads: PagePreload[] = [
  {
    path: '/books/:bookId/chapters/:chapterId',
    module: 'src/app/routes/reader.tsx',
    fetches: ['/api/chapters/:chapterId', '/api/books/:bookId', '/api/books/:bookId/chapters'],
  },
  {
    path: '/books/:bookId',
    module: 'src/app/routes/books.tsx',
    fetches: [
      '/api/books/:bookId',
      '/api/books/:bookId/chapters',
      // Issue 20: the book page lists its announcements.
      '/api/books/:bookId/announcements',
    ],
  },
];
