import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveProgress } from '../src/features/reader/api/reader.ts';
import { ReaderPage } from '../src/features/reader/components/ReaderPage.tsx';
import { createQueryClient } from '../src/lib/query.ts';
import { apiAnswer, bookFixture, chapterFixture, stubApi } from './fixtures.ts';
import { renderRouter } from './render.tsx';

afterEach(() => vi.restoreAllMocks());

const chapter = {
  ...chapterFixture(2, 1),
  content: '<p>The text.</p>',
  note_before: '',
  note_after: '',
  comments_locked: false,
  likes: 0,
};

function renderReader() {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(
    [{ path: '/books/:bookId/chapters/:chapterId', element: <ReaderPage /> }],
    { initialEntries: ['/books/1/chapters/2'] },
  );
  renderRouter(router, { client });
}

const REFUSED = apiAnswer({ detail: 'Too many requests', code: 'rate_limited' }, 429);

/**
 * The reader of chapter 2 (book 1, chapters 2 and 3) with the API answering; the chapter list
 * or the chapter answers 429 while `fails()` says so.
 */
function renderFailing(fails: () => 'list' | 'chapter' | null) {
  stubApi((url) => {
    if (url.pathname === '/api/books/1/chapters')
      return fails() === 'list'
        ? REFUSED.clone()
        : apiAnswer({
            chapters: [chapterFixture(2, 1), { ...chapterFixture(3, 1), chapter_order: 2 }],
          });
    if (url.pathname === '/api/chapters/2')
      return fails() === 'chapter' ? REFUSED.clone() : apiAnswer(chapter);
    if (url.pathname === '/api/books/1') return apiAnswer(bookFixture(1));
    return apiAnswer({});
  });
  renderReader();
}

describe('the reader when a request fails', () => {
  it('says the chapter list could not be loaded (Previous and Next unknown) and tries again', async () => {
    let listFails = true;
    renderFailing(() => (listFails ? 'list' : null));
    await screen.findByText('The text.');
    await screen.findByText('Could not load the list of chapters.');
    listFails = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Next Chapter' })).toBeTruthy();
    expect(screen.queryByText('Could not load the list of chapters.')).toBeNull();
  });

  it('offers to try the chapter again', async () => {
    let chapterFails = true;
    renderFailing(() => (chapterFails ? 'chapter' : null));
    await screen.findByText('Could not load this chapter.');
    chapterFails = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The text.')).toBeTruthy();
  });
});

describe("the reader's position", () => {
  it('is saved with keepalive, so the save made as the tab closes outlives the page', async () => {
    let init: RequestInit | undefined;
    stubApi((_url, given) => {
      init = given;
      return apiAnswer({ book_id: 1, chapter_id: 2, paragraph: 4, offset: 0 });
    });
    await saveProgress(createQueryClient(), 1, { chapter_id: 2, paragraph: 4, offset: 0 });
    expect(init).toMatchObject({ method: 'PUT', keepalive: true });
  });
});
