import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { accountFixture, apiAnswer, stubApi } from '../../../test/fixtures.ts';
import { field } from '../../../test/fields.ts';
import { renderSettings } from '../../../test/settings-page.tsx';
import { createQueryClient } from '../../lib/query.ts';
import { keys } from '../../lib/query-keys.ts';
import { SessionProvider } from '../../lib/session.tsx';
import { useUpdateProfile } from './api/settings.ts';
import { TEXTS } from './components/SettingsPage.tsx';

describe('saving the profile', () => {
  it('asks again for every view that shows the author: their pages, books and own book list', async () => {
    stubApi(() => apiAnswer(accountFixture(7, 'renamed')));
    const client = createQueryClient();
    const shown = [keys.author('old'), keys.book(3), keys.homeRecent(false), keys.myBooks];
    for (const key of shown) client.setQueryData(key, {});
    const { result } = renderHook(() => useUpdateProfile(7), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <QueryClientProvider client={client}>
          <SessionProvider
            initial={{ status: 'in', token: 't', account: accountFixture(7, 'old') }}
          >
            {children}
          </SessionProvider>
        </QueryClientProvider>
      ),
    });
    act(() => result.current.mutate({ username: 'renamed' }));
    for (const key of shown)
      await waitFor(() => expect(client.getQueryState(key)?.isInvalidated).toBe(true));
  });

  it('shows the username the server accepted, though the session cannot be fetched after it', async () => {
    // GET /token fails (the settings page's stub): only the save's answer has the new name.
    const user = renderSettings(() => apiAnswer(accountFixture(7, 'ann_renamed')));
    await user.clear(field('Username'));
    await user.type(field('Username'), 'ann_renamed');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    await screen.findByText(TEXTS.confirmation);
    // The session's account names the avatar, and the form starts again from it.
    await screen.findByRole('img', { name: 'Avatar of ann_renamed' });
    expect(field('Username')).toHaveProperty('value', 'ann_renamed');
  });

  it('shows the avatar the server stored, though the session cannot be fetched after it', async () => {
    const user = renderSettings(
      () => apiAnswer(accountFixture(7, 'ann')),
      () => apiAnswer({ href: '/uploads/new.jpg' }),
    );
    await user.upload(
      screen.getByLabelText('Choose an image'),
      new File(['x'], 'me.png', { type: 'image/png' }),
    );
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'Avatar of ann' })).toHaveProperty(
        'src',
        'http://localhost:3000/uploads/new.jpg',
      ),
    );
  });
});
