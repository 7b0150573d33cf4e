import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EPUB_FAILED, EpubDownload } from '../src/components/EpubDownload.tsx';
import { apiAnswer, stubApi } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/**
 * The EPUB download of a book page: a refused export (a 503 while the book keeps changing, a 429,
 * a 404) is told in the server's own words, and the link is ready again to try again.
 */

const CHANGED = 'The book changed while its EPUB was being made; please try again';

/** The files handed to the browser to save: their names. */
let saved: string[];

beforeEach(() => {
  saved = [];
  // No object URL is made, and nothing downloaded: the click that would save the file is recorded.
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:epub');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    if (this.href === 'blob:epub') saved.push(this.download);
  });
});

const epub = () =>
  new Response(new Blob(['PK'], { type: 'application/epub+zip' }), {
    headers: {
      'content-type': 'application/epub+zip',
      'content-disposition': `attachment; filename="Tide.epub"; filename*=UTF-8''Tid%C3%A9.epub`,
    },
  });

/** The download link of book 5 with the app's toasts; each export asked is answered by `answer`. */
function renderDownload(answer: () => Response | Promise<Response>) {
  const calls = stubApi(answer);
  renderRouter(
    createMemoryRouter([
      {
        path: '/',
        element: (
          <EpubDownload bookId={5} title="Tide" preparing="Preparing EPUB...">
            Download EPUB
          </EpubDownload>
        ),
      },
    ]),
    { toasts: true },
  );
  return calls;
}

const link = () => screen.getByRole('link', { name: /EPUB/ });

/** The texts of the toasts said by the messages' live region. */
const announced = () =>
  Array.from(
    document.querySelectorAll('[aria-live="polite"] [data-testid="toast"] .toast-text'),
  ).map((el) => el.textContent);

describe('the EPUB download', () => {
  it("says a 503's reason in the server's words, and downloads on the next try", async () => {
    let answer: () => Response = () => apiAnswer({ detail: CHANGED, code: 'unavailable' }, 503);
    const calls = renderDownload(() => answer());
    expect(link().getAttribute('href')).toBe('/api/books/5/export.epub');

    await userEvent.click(link());
    await waitFor(() => expect(announced()).toEqual([CHANGED]));
    expect(saved).toEqual([]);
    // Ready again: not busy, its own words back.
    expect(link().getAttribute('aria-disabled')).toBeNull();
    expect(link().textContent).toBe('Download EPUB');

    answer = epub;
    await userEvent.click(link());
    await waitFor(() => expect(saved).toEqual(['Tidé.epub']));
    expect(calls).toEqual(['/api/books/5/export.epub', '/api/books/5/export.epub']);
    expect(announced()).toEqual([CHANGED]);
  });

  it.each([
    [429, 'Too many exports. Try again in 12 s.', 'rate_limited'],
    [404, 'Book not found', 'not_found'],
  ])("says a %i in the server's words", async (status, detail, code) => {
    renderDownload(() => apiAnswer({ detail, code }, status));
    await userEvent.click(link());
    await waitFor(() => expect(announced()).toEqual([detail]));
  });

  it('says it could not download when the server is unreachable or its answer is not its own', async () => {
    let answer = (): Response | Promise<Response> =>
      Promise.reject(new TypeError('Failed to fetch'));
    renderDownload(() => answer());
    await userEvent.click(link());
    await waitFor(() => expect(announced()).toEqual([EPUB_FAILED]));
    answer = () =>
      new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' });
    await userEvent.click(link());
    await waitFor(() => expect(announced()).toEqual([EPUB_FAILED, EPUB_FAILED]));
  });

  it("names the file by the book's title when the server gives no name", async () => {
    renderDownload(() => new Response(new Blob(['PK']), { status: 200 }));
    await userEvent.click(link());
    await waitFor(() => expect(saved).toEqual(['Tide.epub']));
  });

  it('is busy while the file is made, and asks once however often it is clicked', async () => {
    let finish!: (answer: Response) => void;
    const calls = renderDownload(() => new Promise((resolve) => (finish = resolve)));
    await userEvent.click(link());
    expect(link().getAttribute('aria-disabled')).toBe('true');
    expect(link().textContent).toBe('Preparing EPUB...');
    await userEvent.click(link());
    expect(calls).toHaveLength(1);
    await act(async () => finish(epub()));
    await waitFor(() => expect(saved).toEqual(['Tidé.epub']));
    expect(link().getAttribute('aria-disabled')).toBeNull();
    expect(within(document.body).queryAllByTestId('toast')).toEqual([]);
  });
});
