import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { SettingsPage } from '../src/features/settings/components/SettingsPage.tsx';
import { accountFixture, apiAnswer, stubApi } from './fixtures.ts';
import { renderRouter } from './render.tsx';

/**
 * The settings page of ann (author 7, signed in), whose profile saves the server answers with
 * `save`. Her filters and block and mute lists load beside the profile, empty. The session cannot
 * be fetched again (GET /token meets a network failure): what the page shows of the account after
 * a save is what the save answered. An avatar upload is answered by `upload`, when given; with
 * `toasts`, the page's toasts are shown beside it.
 */
export function renderSettings(
  save: () => Response | Promise<Response>,
  upload?: () => Response | Promise<Response>,
  { toasts = false }: { toasts?: boolean } = {},
) {
  stubApi((url, init) => {
    if (url.pathname === '/api/authors/7' && init?.method === 'PUT') return save();
    if (url.pathname === '/api/authors/avatar' && upload) return upload();
    if (url.pathname === '/token') return Promise.reject(new TypeError('Failed to fetch'));
    if (url.pathname === '/api/my/filters')
      return apiAnswer({
        exclude_tags: [],
        exclude_warnings: [],
        exclude_ratings: [],
        muted_authors: [],
      });
    return apiAnswer({ users: [] });
  });
  renderRouter(
    createMemoryRouter([{ path: '/my/settings/:authorId', element: <SettingsPage /> }], {
      initialEntries: ['/my/settings/7'],
    }),
    { session: { status: 'in', token: 't', account: accountFixture(7, 'ann') }, toasts },
  );
  return userEvent.setup();
}
