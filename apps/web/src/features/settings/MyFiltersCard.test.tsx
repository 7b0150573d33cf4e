import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer, accountFixture, stubApi } from '../../../test/fixtures.ts';
import { renderRouter } from '../../../test/render.tsx';
import { MyFiltersCard } from './components/MyFiltersCard.tsx';

const NONE = { exclude_tags: [], exclude_warnings: [], exclude_ratings: [], muted_authors: [] };

describe('My filters', () => {
  it('saves a tag typed without Enter with the rest', async () => {
    let sent: typeof NONE | undefined;
    stubApi((url, init) => {
      if (url.pathname === '/api/my/filters' && init?.method === 'PUT') {
        sent = JSON.parse(String(init.body)) as typeof NONE;
        return apiAnswer(sent);
      }
      if (url.pathname === '/api/my/filters') return apiAnswer(NONE);
      return apiAnswer({ tags: [] });
    });
    renderRouter(createMemoryRouter([{ path: '/', element: <MyFiltersCard /> }]), {
      session: { status: 'in', token: 't', account: accountFixture(7, 'ann') },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Hide books with these tags'), 'Angst');
    await user.click(screen.getByRole('button', { name: 'Save my filters' }));
    await vi.waitFor(() => expect(sent?.exclude_tags).toEqual(['Angst']));
  });
});
