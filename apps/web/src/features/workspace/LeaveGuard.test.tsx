import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Outlet } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LeaveGuardProvider } from '../../components/LeaveGuard.tsx';
import { apiAnswer, bookFixture, chapterFixture, stubApi } from '../../../test/fixtures.ts';
import { renderRouter } from '../../../test/render.tsx';
import { BookDetails, DETAILS_UNSAVED } from './components/BookDetails.tsx';
import type { WorkspaceBookContext } from './components/BookWorkspace.tsx';
import { ChapterSidebar, ORDER_UNSAVED } from './components/ChapterSidebar.tsx';
import { SCHEDULE_UNSAVED } from './components/ScheduleSettings.tsx';

// dnd-kit's packages name their CommonJS build first, which requires React itself, not the Preact the
// tests run on (vitest.config.ts): the sidebar's drag and drop runs on their ES builds here. (`as
// string`: tsc finds no declarations for those files; the sidebar's imports keep the packages' own.)
vi.mock(
  '@dnd-kit/accessibility',
  () => import('@dnd-kit/accessibility/dist/accessibility.esm.js' as string),
);
vi.mock('@dnd-kit/core', () => import('@dnd-kit/core/dist/core.esm.js' as string));
vi.mock('@dnd-kit/sortable', () => import('@dnd-kit/sortable/dist/sortable.esm.js' as string));
vi.mock('@dnd-kit/utilities', () => import('@dnd-kit/utilities/dist/utilities.esm.js' as string));

// jsdom has no modal dialogs: opening one just sets `open`, which is what the tests read.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true;
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false;
  };
});

const BOOK = bookFixture(3, { title: 'Dune' });
const CHAPTERS = [
  { ...chapterFixture(11, 3), title: 'Arrival', chapter_order: 1 },
  { ...chapterFixture(12, 3), title: 'Bargain', chapter_order: 2 },
];

// (Again before each test: the setup restores every mock after one.)
beforeEach(() => {
  // jsdom lays nothing out: each chapter row is 40px below the one before, so dragging finds where
  // it is dropped (as in a browser).
  const box = Element.prototype.getBoundingClientRect;
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const row = this.closest('[data-testid="workspace-chapter"]');
    if (!row) return box.call(this);
    const top = [...row.parentElement!.children].indexOf(row) * 40;
    return DOMRect.fromRect({ x: 0, y: top, width: 240, height: 32 });
  });
});

/** The API of the book's workspace; records each PUT's path and body. */
function mockApi() {
  const puts: Array<{ path: string; body: unknown }> = [];
  stubApi((url, init) => {
    if (init?.method === 'PUT') {
      const body = JSON.parse(String(init.body));
      puts.push({ path: url.pathname, body });
      if (url.pathname === '/api/books/3') return apiAnswer({ ...BOOK, ...body });
      if (url.pathname === '/api/books/3/chapters')
        return apiAnswer({
          chapters: (
            body as { chapters: Array<{ id: number; chapter_order: number }> }
          ).chapters.map((c) => ({ ...CHAPTERS.find((chapter) => chapter.id === c.id)!, ...c })),
        });
    }
    if (url.pathname === '/api/authors/books/3/chapters') return apiAnswer({ chapters: CHAPTERS });
    if (url.pathname === '/api/my/history') return apiAnswer({ read_history: [] });
    if (url.pathname === '/api/genres') return apiAnswer({ genres: [] });
    if (url.pathname === '/api/books/3/genres') return apiAnswer({ genres: [] });
    if (url.pathname === '/api/books/3/deleted-chapters') return apiAnswer({ chapters: [] });
    return apiAnswer({ detail: 'unexpected', code: 'x' }, 500);
  });
  return puts;
}

/** The book's workspace (sidebar beside the details editor or a chapter), under the app's leave guard. */
function renderWorkspace(at = '/my/workspace/books/3') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const context: WorkspaceBookContext = { book: BOOK, requestChapterDelete: () => {} };
  const router = createMemoryRouter(
    [
      {
        element: (
          <LeaveGuardProvider>
            <Outlet />
          </LeaveGuardProvider>
        ),
        children: [
          { path: '/my/workspace', element: <h1>Workspace</h1> },
          {
            path: '/my/workspace/books/:bookId',
            element: (
              <>
                <ChapterSidebar book={BOOK} />
                <Outlet context={context} />
              </>
            ),
            children: [
              { index: true, element: <BookDetails /> },
              { path: 'chapters/:chapterId', element: <h1>A chapter</h1> },
            ],
          },
        ],
      },
    ],
    { initialEntries: [at] },
  );
  renderRouter(router, { client });
  return router;
}

/** The sentences the open leave dialog lists. */
const sentences = async () =>
  [
    ...(await screen.findByRole('dialog', { name: 'Leave without saving?' })).querySelectorAll('p'),
  ].map((p) => p.textContent);

const noQuestion = () =>
  expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();

/** Moves the first chapter down one place with the keyboard: the order is not saved yet. */
async function reorder() {
  (await screen.findByRole('button', { name: 'Move Arrival' })).focus();
  await userEvent.keyboard(' ');
  // The sensor listens for the arrows from the next task on.
  await new Promise((resolve) => setTimeout(resolve, 10));
  await userEvent.keyboard('{ArrowDown}');
  await userEvent.keyboard(' ');
  await screen.findByRole('button', { name: 'Save Order' });
}

describe('leaving the book workspace', () => {
  it('asks before leaving the book with a new chapter order not saved, not before its chapters', async () => {
    mockApi();
    const router = renderWorkspace('/my/workspace/books/3/chapters/11');
    await reorder();

    // Another chapter of the same book keeps the sidebar, and the order.
    await userEvent.click(screen.getByRole('link', { name: 'Bargain' }));
    expect(router.state.location.pathname).toBe('/my/workspace/books/3/chapters/12');
    noQuestion();
    expect(screen.getByRole('button', { name: 'Save Order' })).toBeTruthy();

    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await sentences()).toEqual([ORDER_UNSAVED]);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/my/workspace/books/3/chapters/12');

    // Reset: the old order, nothing to lose.
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await screen.findByRole('heading', { name: 'Workspace' })).toBeTruthy();
    noQuestion();
  });

  it('lets the author leave once the new order is saved', async () => {
    const puts = mockApi();
    renderWorkspace('/my/workspace/books/3/chapters/11');
    await reorder();
    await userEvent.click(screen.getByRole('button', { name: 'Save Order' }));
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Save Order' })).toBeNull());
    expect(puts).toEqual([
      {
        path: '/api/books/3/chapters',
        body: {
          chapters: [
            { id: 12, chapter_order: 1 },
            { id: 11, chapter_order: 2 },
          ],
        },
      },
    ]);

    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await screen.findByRole('heading', { name: 'Workspace' })).toBeTruthy();
    noQuestion();
  });

  it('asks before leaving book details not saved, and lists the chapter order too', async () => {
    const puts = mockApi();
    const router = renderWorkspace();
    const title = await screen.findByLabelText('Title');
    await userEvent.type(title, ' Messiah');

    // Even a chapter of the same book leaves the details editor.
    await userEvent.click(screen.getByRole('link', { name: 'Arrival' }));
    expect(await sentences()).toEqual([DETAILS_UNSAVED]);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));

    await reorder();
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect((await sentences()).sort()).toEqual([DETAILS_UNSAVED, ORDER_UNSAVED].sort());
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));

    // Typing the saved title back: nothing to lose.
    await userEvent.clear(title);
    await userEvent.type(title, 'Dune ');
    await userEvent.click(screen.getByRole('link', { name: 'Arrival' }));
    expect(await screen.findByRole('heading', { name: 'A chapter' })).toBeTruthy();
    noQuestion();

    // Saved details: nothing to lose either.
    await userEvent.click(screen.getByRole('link', { name: 'Edit Book Details' }));
    await userEvent.type(await screen.findByLabelText('Title'), ' Messiah');
    await userEvent.click(screen.getByRole('button', { name: 'Save Details' }));
    await vi.waitFor(() => expect(puts.map((put) => put.path)).toEqual(['/api/books/3']));
    await screen.findByRole('button', { name: 'Save Details' });
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await screen.findByRole('heading', { name: 'Workspace' })).toBeTruthy();
    noQuestion();
    expect(router.state.location.pathname).toBe('/my/workspace');
  });

  it('asks before leaving a release schedule edited but not saved', async () => {
    const puts = mockApi();
    renderWorkspace();
    const line = await screen.findByLabelText('Schedule line');
    await userEvent.type(line, 'Every Friday');
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await sentences()).toEqual([SCHEDULE_UNSAVED]);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));

    await userEvent.click(screen.getByRole('button', { name: 'Save schedule' }));
    await vi.waitFor(() => expect(puts.map((put) => put.path)).toEqual(['/api/books/3']));
    await screen.findByRole('button', { name: 'Save schedule' });
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await screen.findByRole('heading', { name: 'Workspace' })).toBeTruthy();
    noQuestion();
  });

  it('counts a tag typed but not added yet as unsaved details', async () => {
    mockApi();
    renderWorkspace();
    const tags = await screen.findByLabelText('Tags');
    await userEvent.type(tags, 'spice');
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await sentences()).toEqual([DETAILS_UNSAVED]);
    await userEvent.click(screen.getByRole('button', { name: 'Stay' }));
    await userEvent.clear(tags);
    await userEvent.click(screen.getByRole('link', { name: 'Back to Workspace' }));
    expect(await screen.findByRole('heading', { name: 'Workspace' })).toBeTruthy();
    noQuestion();
  });
});
