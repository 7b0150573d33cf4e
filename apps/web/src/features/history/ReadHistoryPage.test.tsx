import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { accountFixture, apiAnswer, stubApi } from '../../../test/fixtures.ts';
import { renderRouter } from '../../../test/render.tsx';
import { ReadHistoryPage } from './components/ReadHistoryPage.tsx';

const item = (chapterId: number) => ({
  book_id: 1,
  book_title: 'The Book',
  book_cover: null,
  chapter_id: chapterId,
  chapter_title: `Chapter ${chapterId}`,
  read_at: '2026-11-29T10:00:00.000Z',
});

describe('Read History', () => {
  it('sends each row’s delete once, however many rows are being deleted at the same time', async () => {
    const deletes: string[] = [];
    stubApi((url, init) => {
      if (init?.method === 'DELETE') {
        deletes.push(url.pathname);
        // Never answered within the test: both deletes stay on their way.
        return new Promise<Response>(() => {});
      }
      return apiAnswer({ read_history: [item(1), item(2)] });
    });
    renderRouter(createMemoryRouter([{ path: '/', element: <ReadHistoryPage /> }]), {
      session: { status: 'in', token: 't', account: accountFixture(7, 'ann') },
    });
    const user = userEvent.setup();
    const first = await screen.findByRole('button', { name: 'Delete Chapter 1 from history' });
    const second = screen.getByRole('button', { name: 'Delete Chapter 2 from history' });
    await user.click(first);
    await user.click(second);
    await user.click(first);
    expect(deletes).toEqual(['/api/chapters/1/history', '/api/chapters/2/history']);
    expect(first.getAttribute('aria-disabled')).toBe('true');
    expect(second.getAttribute('aria-disabled')).toBe('true');
  });
});
