import type { LibraryEntry } from '@inkwell/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '../../lib/query.ts';
import { keys } from '../../lib/query-keys.ts';
import type { SessionState } from '../../lib/session.tsx';
import { accountFixture, apiAnswer, stubApi } from '../../../test/fixtures.ts';
import { renderRouter } from '../../../test/render.tsx';
import { ShelfControls } from './components/ShelfControls.tsx';

const SIGNED_IN: SessionState = { status: 'in', token: 't', account: accountFixture(7, 'ann') };

const entry: LibraryEntry = {
  book: {
    id: 5,
    title: 'Book 5',
    summary: '',
    cover: null,
    is_published: true,
    author_id: 1,
    author_username: 'ann',
    author_first_name: '',
    author_last_name: '',
  },
  status: 'reading',
  owned: false,
  progress: { chapters_read: 1, total_chapters: 3 },
  position: null,
  last_read_at: null,
  updated_at: null,
};

/**
 * The shelf controls of book 5, its entry answered while `down()` is false (503 otherwise), on
 * the app's client, retrying as it does, without waiting between tries.
 */
function renderShelf(down: () => boolean) {
  const calls = stubApi((url) =>
    url.pathname === '/api/my/library/5' && !down()
      ? apiAnswer(entry)
      : apiAnswer({ detail: 'Unavailable', code: 'unavailable' }, 503),
  );
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retryDelay: 0 } });
  const router = createMemoryRouter([{ path: '/', element: <ShelfControls bookId={5} /> }]);
  renderRouter(router, { session: SIGNED_IN, client });
  return { calls, client };
}

describe('the shelf controls on a book page', () => {
  it('say that the library entry could not be loaded, and load it again on Try again', async () => {
    let down = true;
    const { calls } = renderShelf(() => down);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not load your reading status for this book. Try again');
    expect(calls.filter((c) => c === '/api/my/library/5')).toHaveLength(3);

    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Reading status')).toHaveProperty('value', 'reading');
    expect(screen.getByText('1 of 3 chapters read')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('stay, with the entry they have, when a refresh fails', async () => {
    let down = false;
    const { calls, client } = renderShelf(() => down);
    await screen.findByLabelText('Reading status');

    down = true;
    await act(() => client.invalidateQueries({ queryKey: keys.libraryEntry(5) }));
    await waitFor(() => expect(client.getQueryState(keys.libraryEntry(5))?.status).toBe('error'));
    expect(calls.filter((c) => c === '/api/my/library/5')).toHaveLength(4);
    expect(screen.getByLabelText('Reading status')).toHaveProperty('value', 'reading');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
