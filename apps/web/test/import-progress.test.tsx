import type { ImportJob, ImportPreview } from '@inkwell/contract';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ImportPage } from '../src/features/imports/components/ImportPage.tsx';
import { ImportWatch } from '../src/features/imports/components/ImportWatch.tsx';
import { WorkspacePage } from '../src/features/workspace/components/WorkspacePage.tsx';
import { keys } from '../src/lib/query-keys.ts';
import type { SessionState } from '../src/lib/session.tsx';
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
    const { router } = renderImport('/my/import');
    await previewFile('story-5.md');
    await userEvent.click(await screen.findByRole('button', { name: 'Create book' }));
    await screen.findByText('Importing (50%)');

    // The import page is gone; the workspace shows the books as they were.
    await router.navigate('/my/workspace');
    const card = (title: string) => screen.findByRole('heading', { name: title });
    await card('Book 8');
    expect(screen.queryByRole('heading', { name: 'Book 9' })).toBeNull();
    finished = true;
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
});
