import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunction, type RouteObject } from 'react-router';
import { prefetchReader } from '../features/reader/api/reader.ts';
import { loadChunk } from '../lib/chunks.ts';
import { BASE, routeId } from '../lib/paths.ts';
import { ErrorPage, RootErrorPage } from './ErrorPage.tsx';
import { RootLayout } from './layouts/RootLayout.tsx';
import { NoMatch } from './NoMatch.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { IndexPage } from './IndexPage.tsx';

/**
 * Every route of SPEC section 2. Each area is one lazily loaded module under ./routes, so a page
 * only downloads its own area's code; add an area by adding a module and a branch here.
 */
type Module = Record<string, ComponentType>;
const page =
  <M extends Module>(load: () => Promise<M>, name: keyof M & string) =>
  async () => ({ Component: (await loadChunk(load))[name] });

const home = () => import('./routes/home.tsx');
const books = () => import('./routes/books.tsx');
const reader = () => import('./routes/reader.tsx');
const accounts = () => import('./routes/accounts.tsx');
const authors = () => import('./routes/authors.tsx');
const my = () => import('./routes/my.tsx');
const workspace = () => import('./routes/workspace.tsx');
const library = () => import('./routes/library.tsx');
const admin = () => import('./routes/admin.tsx');
const stats = () => import('./routes/stats.tsx');

/**
 * The reader's data, fetched beside its chunk: the page renders once, with the text, rather than
 * a loading state first and the text a moment later (docs/decisions/0016-page-preloads.md).
 */
const readerLoader =
  (client: QueryClient): LoaderFunction =>
  async ({ params }) => {
    await prefetchReader(client, routeId(params.bookId), routeId(params.chapterId));
    return null;
  };

export const appRoutes = (client: QueryClient): RouteObject[] => [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RootErrorPage />,
    // Nothing until the first page can render whole (its chunk and, for the reader, its data).
    HydrateFallback: () => null,
    children: [
      {
        // Errors of a page show inside the shell, so the header and sidebar stay usable.
        errorElement: <ErrorPage />,
        children: [
          { index: true, element: <IndexPage /> },
          { path: 'home', lazy: page(home, 'HomePage') },
          {
            path: 'books',
            children: [
              { index: true, lazy: page(books, 'BooksPage') },
              { path: 'search', lazy: page(books, 'SearchPage') },
              { path: 'genres', lazy: page(books, 'GenresPage') },
              { path: 'genres/:genre', lazy: page(books, 'GenrePage') },
              { path: ':bookId', lazy: page(books, 'BookPage') },
              {
                path: ':bookId/chapters/:chapterId',
                lazy: page(reader, 'ReaderPage'),
                loader: readerLoader(client),
              },
            ],
          },
          {
            path: 'accounts',
            children: [
              { path: 'login', lazy: page(accounts, 'LoginPage') },
              { path: 'signup', lazy: page(accounts, 'SignupPage') },
              { path: 'logout', lazy: page(accounts, 'LogoutPage') },
              { path: '*', lazy: page(accounts, 'AccountsNoMatch') },
            ],
          },
          {
            path: 'authors/:authorId',
            lazy: page(authors, 'AuthorPage'),
            children: [
              { index: true, lazy: page(authors, 'RecentWorkTab') },
              { path: 'all', lazy: page(authors, 'AllBooksTab') },
              { path: 'chat', lazy: page(authors, 'ChatTab') },
            ],
          },
          {
            element: <RequireAuth />,
            children: [
              { path: 'following', lazy: page(my, 'FollowingPage') },
              { path: 'my/settings/:authorId', lazy: page(my, 'SettingsPage') },
              { path: 'my/read-history', lazy: page(my, 'ReadHistoryPage') },
              { path: 'my/library', lazy: page(library, 'LibraryPage') },
              { path: 'my/import', lazy: page(library, 'ImportPage') },
              { path: 'admin/reports', lazy: page(admin, 'ReportsPage') },
              {
                path: 'my/workspace',
                children: [
                  { index: true, lazy: page(workspace, 'WorkspacePage') },
                  {
                    path: 'books/:bookId',
                    lazy: page(workspace, 'WorkspaceBookPage'),
                    children: [
                      { index: true, lazy: page(workspace, 'WorkspaceBookDetails') },
                      {
                        path: 'chapters/:chapterId',
                        lazy: page(workspace, 'WorkspaceChapterPage'),
                      },
                      { path: 'stats', lazy: page(stats, 'WorkspaceStatsPage') },
                      { path: '*', lazy: page(workspace, 'WorkspaceNoMatch') },
                    ],
                  },
                  { path: '*', lazy: page(workspace, 'WorkspaceNoMatch') },
                ],
              },
            ],
          },
          { path: '*', element: <NoMatch /> },
        ],
      },
    ],
  },
];

export const createAppRouter = (client: QueryClient) =>
  createBrowserRouter(appRoutes(client), { basename: BASE || '/' });
