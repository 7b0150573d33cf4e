import type { ImportJob, ImportPreview } from '@inkwell/contract';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  followedImports,
  followedImportsKey,
  followImports,
} from '../src/features/imports/api/followedImports.ts';
import { ImportPage } from '../src/features/imports/components/ImportPage.tsx';
import { ImportWatch } from '../src/features/imports/components/ImportWatch.tsx';
import { WorkspacePage } from '../src/features/workspace/components/WorkspacePage.tsx';
import { keys } from '../src/lib/query-keys.ts';
import { useSession, type SessionState } from '../src/lib/session.tsx';
import { accountFixture, apiAnswer, bookFixture, stubApi } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/**
 * Leaving the import page while an import runs: the job is in the page's address, so coming back
 * shows it; ImportWatch, mounted with the layout (as here), follows unfinished jobs on any page
 * and refreshes the workspace's books when one ends.
 */

const SIGNED_IN: SessionState = { status: 'in', token: 'token', account: accountFixture(7, 'ann') };

const job = (id: number, changes: Partial<ImportJob> = {}): ImportJob => ({
  id,
  status: 'running',
  progress: 0.5,
  message: '',
  book_id: null,
  filename: `story-${id}.md`,
  format: 'markdown',
  keep_front_matter: false,
  chapter_count: null,
  source_title: null,
  source_author: null,
  warnings: [],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  finished_at: null,
  ...changes,
});

const preview = (filename: string): ImportPreview => ({
  filename,
  format: 'markdown',
  keep_front_matter: false,
  title: 'Story',
  source_title: null,
  source_author: null,
  chapters: [{ index: 0, title: 'One', words: 1, kind: 'body', included: true, opening: 'A' }],
  warnings: [],
});

/**
 * The API of an author with Book 8 who imports story-5.md as job 5: it runs until `finish()`, then
 * is done, having made Book 9.
 */
function stubImportOfBook9() {
  let finished = false;
  const calls = stubApi((url, init) => {
    if (url.pathname === '/api/imports/preview') return apiAnswer(preview(url.pathname));
    if (url.pathname === '/api/imports' && init?.method === 'POST')
      return apiAnswer(job(5, { status: 'queued', progress: 0 }), 202);
    if (url.pathname === '/api/imports/5')
      return apiAnswer(job(5, finished ? { status: 'done', progress: 1, book_id: 9 } : {}));
    if (url.pathname === '/api/my/books')
      return apiAnswer(finished ? [bookFixture(9), bookFixture(8)] : [bookFixture(8)]);
    return apiAnswer({ imports: [] });
  });
  return { calls, finish: () => (finished = true) };
}

/**
 * The session read again finds another account (bob, 8) signed in: a sign-in in another tab,
 * with no sign-out on this one.
 */
function SwitchAccount() {
  const { refresh } = useSession();
  return (
    <button type="button" onClick={() => void refresh()}>
      Switch account
    </button>
  );
}

function SignOut() {
  const { logout } = useSession();
  return (
    <button type="button" onClick={() => void logout()}>
      Sign out
    </button>
  );
}

function renderImport(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <Outlet />
            <ImportWatch />
          </>
        ),
        children: [
          { path: '/my/import', element: <ImportPage /> },
          { path: '/my/workspace', element: <WorkspacePage /> },
          { path: '/elsewhere', element: <p>Elsewhere</p> },
          { path: '/leave', element: <SignOut /> },
          { path: '/switch', element: <SwitchAccount /> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  const { client } = renderRouter(router, { session: SIGNED_IN });
  return { router, client };
}

const previewFile = async (name: string) => {
  await userEvent.upload(
    screen.getByLabelText('Story file'),
    new File(['# Story'], name, { type: 'text/markdown' }),
  );
  // jsdom cannot tell a `required` file input has a file set by userEvent: submit directly.
  fireEvent.submit(screen.getByRole('button', { name: 'Preview chapters' }).closest('form')!);
};

beforeEach(() => localStorage.clear());

describe('the import page', () => {
  it('keeps the started import in its address: coming back shows its progress', async () => {
    stubApi((url, init) => {
      if (url.pathname === '/api/imports/preview') return apiAnswer(preview(url.pathname));
      if (url.pathname === '/api/imports' && init?.method === 'POST')
        return apiAnswer(job(5, { status: 'queued', progress: 0 }), 202);
      if (url.pathname === '/api/imports/5') return apiAnswer(job(5));
      return apiAnswer({ imports: [] });
    });
    const { router } = renderImport('/my/import');
    await previewFile('story-5.md');
    await userEvent.click(await screen.findByRole('button', { name: 'Create book' }));
    await screen.findByText('Importing (50%)');
    // Replaced, not pushed: the back button leaves the page rather than hiding the job.
    expect(router.state.location.search).toBe('?job=5');
    expect(router.state.historyAction).toBe('REPLACE');

    await router.navigate('/elsewhere');
    await screen.findByText('Elsewhere');
    await router.navigate(-1);
    expect(await screen.findByText('Importing (50%)')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'story-5.md' })).toBeTruthy();
  });

  it('keeps showing a running import while another file is previewed', async () => {
    stubApi((url) => {
      if (url.pathname === '/api/imports/preview') return apiAnswer(preview('other.md'));
      if (url.pathname === '/api/imports/5') return apiAnswer(job(5));
      return apiAnswer({ imports: [] });
    });
    renderImport('/my/import?job=5');
    await screen.findByText('Importing (50%)');
    await previewFile('other.md');
    await screen.findByRole('button', { name: 'Create book' });
    expect(screen.getByText('Importing (50%)')).toBeTruthy();
  });

  it('follows an unfinished earlier import until it ends, then refreshes the workspace books', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let finished = false;
    const job5 = () =>
      job(5, finished ? { status: 'done', progress: 1, book_id: 9, chapter_count: 1 } : {});
    const calls = stubApi((url) =>
      url.pathname === '/api/imports/5'
        ? apiAnswer(job5())
        : apiAnswer({ imports: [job5(), job(4, { status: 'done', progress: 1, book_id: 8 })] }),
    );
    const { client } = renderImport('/my/import');
    client.setQueryData(keys.myBooks, [bookFixture(8)]);
    await screen.findByText(/story-5\.md, .*: Importing/);
    finished = true;
    await vi.advanceTimersByTimeAsync(5_000);
    const line = await screen.findByText(/story-5\.md, .*: Done/);
    expect(line.querySelector('a')?.getAttribute('href')).toBe('/my/workspace/books/9');
    expect(client.getQueryState(keys.myBooks)?.isInvalidated).toBe(true);
    // Every job finished: the list is no longer asked about.
    const asked = calls.filter((call) => call === '/api/imports').length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.filter((call) => call === '/api/imports')).toHaveLength(asked);
  });

  it('refreshes the workspace books when an import started here ends while the author is elsewhere', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, finish } = stubImportOfBook9();
    const { router } = renderImport('/my/import');
    await previewFile('story-5.md');
    await userEvent.click(await screen.findByRole('button', { name: 'Create book' }));
    await screen.findByText('Importing (50%)');

    // The import page is gone; the workspace shows the books as they were.
    await router.navigate('/my/workspace');
    const card = (title: string) => screen.findByRole('heading', { name: title });
    await card('Book 8');
    expect(screen.queryByRole('heading', { name: 'Book 9' })).toBeNull();
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await card('Book 9')).toBeTruthy();
    // Ended: the job is no longer asked about.
    const asked = calls.filter((call) => call === '/api/imports/5').length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.filter((call) => call === '/api/imports/5')).toHaveLength(asked);
  });

  it('does not ask again about a list whose imports all ended', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubApi(() =>
      apiAnswer({ imports: [job(4, { status: 'failed', progress: 1, message: 'Unreadable' })] }),
    );
    renderImport('/my/import');
    await screen.findByText(/story-4\.md, .*: Failed \(Unreadable\)/);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls.filter((call) => call === '/api/imports')).toHaveLength(1);
  });

  it('shows in the list of earlier imports what is heard of an unfinished job, without asking the list again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: ImportJob['status'] = 'queued';
    const job5 = () =>
      job(5, status === 'queued' ? { status, progress: 0 } : { status, progress: 0.5 });
    const calls = stubApi((url) =>
      url.pathname === '/api/imports/5' ? apiAnswer(job5()) : apiAnswer({ imports: [job5()] }),
    );
    renderImport('/my/import');
    await screen.findByText(/story-5\.md, .*: Waiting/);
    status = 'running';
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await screen.findByText(/story-5\.md, .*: Importing/)).toBeTruthy();
    expect(calls.filter((call) => call === '/api/imports')).toHaveLength(1);
  });
});

/**
 * A reload, or a new tab, starts with an empty cache: the unfinished imports are kept for the
 * account in localStorage, and ImportWatch follows them again from the first page.
 */
describe('imports followed across a reload', () => {
  it('follows an import started before a reload, then refreshes the workspace books when it ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls, finish } = stubImportOfBook9();
    renderImport('/my/import');
    await previewFile('story-5.md');
    await userEvent.click(await screen.findByRole('button', { name: 'Create book' }));
    await screen.findByText('Importing (50%)');
    expect(followedImports(7)).toEqual([5]);

    // The reload: nothing of the page is left but the browser's storage.
    cleanup();
    calls.length = 0;
    renderImport('/my/workspace');
    const card = (title: string) => screen.findByRole('heading', { name: title });
    await card('Book 8');
    expect(calls).toContain('/api/imports/5');
    expect(screen.queryByRole('heading', { name: 'Book 9' })).toBeNull();
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await card('Book 9')).toBeTruthy();
    // Ended: no longer kept, nor asked about.
    expect(followedImports(7)).toEqual([]);
    const asked = calls.filter((call) => call === '/api/imports/5').length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.filter((call) => call === '/api/imports/5')).toHaveLength(asked);
  });

  it('refreshes the workspace books when a kept import ended before the reload', async () => {
    followImports(7, [5]);
    stubApi((url) => {
      if (url.pathname === '/api/imports/5')
        return apiAnswer(job(5, { status: 'done', progress: 1, book_id: 9 }));
      return apiAnswer([bookFixture(8)]);
    });
    const { client } = renderImport('/elsewhere');
    client.setQueryData(keys.myBooks, [bookFixture(8)]);
    await vi.waitFor(() => expect(client.getQueryState(keys.myBooks)?.isInvalidated).toBe(true));
    expect(followedImports(7)).toEqual([]);
  });

  it('keeps an unfinished job of the list of earlier imports too', async () => {
    stubApi((url) =>
      url.pathname === '/api/imports/5'
        ? apiAnswer(job(5))
        : apiAnswer({ imports: [job(5), job(4, { status: 'done', progress: 1, book_id: 8 })] }),
    );
    renderImport('/my/import');
    await screen.findByText(/story-5\.md, .*: Importing/);
    await vi.waitFor(() => expect(followedImports(7)).toEqual([5]));
  });

  it('drops a kept job the server refuses to say about, and stops asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    followImports(7, [5, 6]);
    const calls = stubApi((url) =>
      url.pathname === '/api/imports/5'
        ? apiAnswer({ detail: 'Not found' }, 404)
        : apiAnswer(job(6)),
    );
    renderImport('/elsewhere');
    await vi.waitFor(() => expect(followedImports(7)).toEqual([6]));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.filter((call) => call === '/api/imports/5')).toHaveLength(1);
    expect(calls.filter((call) => call === '/api/imports/6').length).toBeGreaterThan(3);
  });

  it("asks nothing on load when nothing is kept for the account (another account's are not its)", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    followImports(8, [5]);
    const calls = stubApi(() => apiAnswer(job(5)));
    renderImport('/elsewhere');
    await screen.findByText('Elsewhere');
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls.filter((call) => call.startsWith('/api/imports'))).toEqual([]);
    expect(followedImports(8)).toEqual([5]);
  });

  it('does not ask again about a kept job that ended, once the cache has let its query go', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    followImports(7, [5]);
    const calls = stubApi((url) =>
      url.pathname === '/api/imports/5'
        ? apiAnswer(job(5, { status: 'done', progress: 1, book_id: 9 }))
        : apiAnswer([bookFixture(8)]),
    );
    renderImport('/elsewhere');
    await vi.waitFor(() => expect(followedImports(7)).toEqual([]));
    // Past the query cache's five minutes for a query nothing watches.
    await vi.advanceTimersByTimeAsync(6 * 60_000);
    expect(calls.filter((call) => call === '/api/imports/5')).toHaveLength(1);
    expect(followedImports(7)).toEqual([]);
  });

  it("follows one account's jobs no longer once another signs in on the same tab", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    followImports(7, [5]);
    let account = accountFixture(7, 'ann');
    const calls = stubApi((url) => {
      if (url.pathname === '/token')
        return apiAnswer({ access_token: 't', token_type: 'bearer', account });
      // The job is ann's: the server refuses it to anyone else.
      return account.id === 7 ? apiAnswer(job(5)) : apiAnswer({ detail: 'Not found' }, 404);
    });
    renderImport('/switch');
    await vi.waitFor(() => expect(calls).toContain('/api/imports/5'));
    account = accountFixture(8, 'bob');
    await userEvent.click(screen.getByRole('button', { name: 'Switch account' }));
    await vi.waitFor(() => expect(followedImports(7)).toEqual([]));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(followedImports(8)).toEqual([]);
    const asked = calls.filter((call) => call === '/api/imports/5').length;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(calls.filter((call) => call === '/api/imports/5')).toHaveLength(asked);
  });

  it('forgets the kept imports at sign-out', async () => {
    followImports(7, [5]);
    const calls = stubApi((url) => (url.pathname === '/token' ? apiAnswer({}) : apiAnswer(job(5))));
    renderImport('/leave');
    await vi.waitFor(() => expect(calls).toContain('/api/imports/5'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await vi.waitFor(() => expect(localStorage.getItem(followedImportsKey(7))).toBeNull());
  });
});
