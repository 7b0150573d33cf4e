import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { apiAnswer, stubApi } from '../../../test/fixtures.ts';
import { renderRouter } from '../../../test/render.tsx';
import { LoginPage } from './components/LoginPage.tsx';
import { SignupPage } from './components/SignupPage.tsx';
import { ALL_FIELDS, PASSWORDS_MUST_MATCH } from './validation.ts';
import { description, field } from '../../../test/fields.ts';

/**
 * An error is tied to the fields it is about: a screen reader on such a field hears that it is
 * invalid, and why (its description); after a failed submit the focus is on the first of them.
 */

const refuse = (status: number, detail: string, field?: string) =>
  apiAnswer({ detail, code: 'validation', field }, status);

/** The signup page, its form filled with `values` (by label) and submitted; the API answers `answer`. */
async function submitSignup(
  values: Record<string, string>,
  answer: () => Response = () => refuse(500, 'unused'),
) {
  stubApi(answer);
  renderRouter(createMemoryRouter([{ path: '/', element: <SignupPage /> }]));
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) await user.type(field(label), value);
  await user.click(screen.getByRole('button', { name: 'Submit' }));
}

describe('signup: errors at their fields', () => {
  it('marks the empty fields, describes them with the error, and focuses the first', async () => {
    await submitSignup({ Username: 'ann' });
    for (const label of ['Password', 'Confirm password']) {
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(description(field(label))).toContain(ALL_FIELDS);
    }
    expect(field('Username').getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field('Password')));
  });

  it('marks both passwords when they differ, and focuses the first', async () => {
    await submitSignup({
      Username: 'ann',
      Password: 'correct horse',
      'Confirm password': 'correct hors',
    });
    expect(field('Password').getAttribute('aria-invalid')).toBe('true');
    expect(description(field('Password'))).toContain(PASSWORDS_MUST_MATCH);
    // The hint while typing stays in the confirm field's description, with the error.
    expect(description(field('Confirm password'))).toContain(PASSWORDS_MUST_MATCH);
    await waitFor(() => expect(document.activeElement).toBe(field('Password')));
  });

  it('shows a taken username at the username field, tied to it, help kept, and focuses it', async () => {
    await submitSignup(
      { Username: 'ann', Password: 'correct horse', 'Confirm password': 'correct horse' },
      () => refuse(409, 'That username is taken', 'username'),
    );
    await waitFor(() => expect(field('Username').getAttribute('aria-invalid')).toBe('true'));
    expect(description(field('Username'))).toMatch(/letters, digits.*That username is taken$/);
    expect(field('Password').getAttribute('aria-invalid')).toBeNull();
    const message = screen.getByText('That username is taken');
    expect(message.closest('.field')).toBe(field('Username').closest('.field'));
    await waitFor(() => expect(document.activeElement).toBe(field('Username')));
    // Heard once, from the field the focus moved to and its description: not as an alert too.
    expect(message.getAttribute('role')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("ties the server's too-short password to the password field and focuses it", async () => {
    const detail = 'password: password must be at least 8 characters';
    await submitSignup({ Username: 'ann', Password: 'short', 'Confirm password': 'short' }, () =>
      refuse(400, detail, 'password'),
    );
    await waitFor(() => expect(field('Password').getAttribute('aria-invalid')).toBe('true'));
    expect(description(field('Password'))).toContain(detail);
    expect(field('Username').getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field('Password')));
  });
});

/** The login page, whose attempt the server refuses with `status` and `detail` (answer not awaited). */
async function refusedLogin(status: number, detail: string) {
  stubApi(() => refuse(status, detail));
  renderRouter(createMemoryRouter([{ path: '/', element: <LoginPage /> }]));
  const user = userEvent.setup();
  await user.type(field('Username'), 'ann');
  await user.type(field('Password'), 'wrong');
  await user.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('login: the error of the pair', () => {
  it('marks both fields, describes them with the one message, and focuses the first', async () => {
    await refusedLogin(401, 'Incorrect username or password');
    await waitFor(() => expect(document.activeElement).toBe(field('Username')));
    for (const label of ['Username', 'Password']) {
      expect(field(label).getAttribute('aria-invalid')).toBe('true');
      expect(description(field(label))).toBe('Incorrect username or password.');
    }
    // Heard from the field the focus moved to: not as an alert too.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it.each([
    [403, 'This account is suspended'],
    [503, 'The server is busy; try again in a moment'],
  ])(
    'keeps a refusal with %i a message of the form: neither field is wrong',
    async (status, detail) => {
      await refusedLogin(status, detail);
      expect((await screen.findByRole('alert')).textContent).toBe(detail);
      for (const label of ['Username', 'Password']) {
        expect(field(label).getAttribute('aria-invalid')).toBeNull();
        expect(field(label).getAttribute('aria-describedby')).toBeNull();
      }
    },
  );
});
