import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LoginPage } from '../src/features/accounts/components/LoginPage.tsx';
import { SignupPage } from '../src/features/accounts/components/SignupPage.tsx';
import { description, field } from './fields.ts';
import { apiAnswer, stubApi } from './fixtures.ts';
import { renderRouter } from './render.tsx';
import { renderSettings } from './settings-page.tsx';

/**
 * SPEC section 8: a failed login is shown as a toast and inline; so are a failed signup and
 * profile save whose form says the toast's own words. A screen reader hears them once: from the
 * form (the focus moved to a field the message describes, or an alert), not from the toast too.
 */

const SAID = '[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"], [role="log"]';

/** The places a screen reader is told `message` unasked: live regions and alerts, and the focused field's description. */
function heard(message: string): string[] {
  const places = Array.from(document.querySelectorAll(SAID))
    .filter((el) => !el.parentElement?.closest(SAID))
    .filter((el) => el.textContent?.includes(message))
    .map((el) => el.getAttribute('role') ?? `aria-live=${el.getAttribute('aria-live')}`);
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && description(focused).includes(message))
    places.push(`focus on ${focused.getAttribute('name')}`);
  return places;
}

/** The page `page` with the app's toasts, its form submitted after typing `values`; every call answered by `answer`. */
async function submit(
  page: 'login' | 'signup',
  values: Record<string, string>,
  answer: () => Response | Promise<Response>,
) {
  stubApi(answer);
  const element = page === 'login' ? <LoginPage /> : <SignupPage />;
  renderRouter(createMemoryRouter([{ path: '/', element }]), { toasts: true });
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) await user.type(field(label), value);
  await user.click(screen.getByRole('button', { name: page === 'login' ? 'Log In' : 'Submit' }));
}

const login = (answer: () => Response | Promise<Response>) =>
  submit('login', { Username: 'ann', Password: 'wrong' }, answer);

/** The toast saying `message`, once it is shown. */
const toastOf = async (message: string) =>
  (await screen.findAllByTestId('toast')).filter((el) => el.textContent?.includes(message));

describe('a failed login is heard once', () => {
  it('says a refused name and password at the focused field; the toast shows it, unannounced', async () => {
    await login(() => apiAnswer({ detail: 'Incorrect username or password', code: 'auth' }, 401));
    const message = 'Incorrect username or password.';
    expect(await toastOf(message)).toHaveLength(1);
    await waitFor(() => expect(document.activeElement).toBe(field('Username')));
    expect(heard(message)).toEqual(['focus on username']);
  });

  it.each([
    [
      'a refusal about neither field',
      () => apiAnswer({ detail: 'Too many attempts' }, 429),
      'Too many attempts',
    ],
    [
      'an unreachable server',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'Could not reach the server.',
    ],
  ])('says %s as the alert alone; the toast shows it, unannounced', async (_, answer, message) => {
    await login(answer);
    expect(await toastOf(message)).toHaveLength(1);
    expect(heard(message)).toEqual(['alert']);
  });
});

describe('signup: a toast the form says in its words is heard once', () => {
  const filled = {
    Username: 'ann',
    Password: 'correct horse',
    'Confirm password': 'correct horse',
  };

  it('says a failed account creation as the alert alone; the toast shows it, unannounced', async () => {
    await submit('signup', filled, () => apiAnswer({ detail: 'Internal error' }, 500));
    const message = 'Could not create user account.';
    expect(await toastOf(message)).toHaveLength(1);
    expect(heard(message)).toEqual(['alert']);
  });

  it("announces the toast when the form says the server's own reason instead", async () => {
    await submit('signup', filled, () =>
      apiAnswer({ detail: 'That username is taken', field: 'username' }, 409),
    );
    expect(await toastOf('Could not create user account.')).toHaveLength(1);
    expect(heard('Could not create user account.')).toEqual(['aria-live=polite']);
    await waitFor(() => expect(heard('That username is taken')).toEqual(['focus on username']));
  });
});

describe('settings: a failed profile save, said by the form in the toast words, is heard once', () => {
  it('says it as the alert alone; the toast shows it, unannounced', async () => {
    renderSettings(() => apiAnswer({ detail: 'Internal error' }, 500), undefined, {
      toasts: true,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Update Profile' }));
    const message = 'Could not update author profile';
    expect(await toastOf(message)).toHaveLength(1);
    expect(heard(message)).toEqual(['alert']);
  });
});
