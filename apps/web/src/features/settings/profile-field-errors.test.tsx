import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiAnswer } from '../../../test/fixtures.ts';
import { renderSettings } from '../../../test/settings-page.tsx';
import { description, field } from '../../../test/fields.ts';

/**
 * The profile form ties a server error about one field to that field: a screen reader on it hears
 * that it is invalid, and why, with its help; the focus goes to it after the failed save. Which
 * field is the server's to say (the error body's `field`), never guessed from the status.
 */

/** The settings page, whose profile saves the server refuses with `status`, `detail` and `field`. */
const renderRefusingSettings = (status: number, detail: string, field?: string) =>
  renderSettings(() => apiAnswer({ detail, code: 'forbidden', field }, status));

describe('the profile form: errors at their fields', () => {
  it('ties a wrong current password to that field, keeps its help, and focuses it', async () => {
    const user = renderRefusingSettings(
      403,
      'Your current password is incorrect.',
      'current_password',
    );
    await user.type(field('Password'), 'a brand new secret');
    await user.type(field('Current password'), 'not my password');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    const current = field('Current password');
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(description(current)).toBe(
      'Needed to change your password when you signed in more than 10 minutes ago. ' +
        'Your current password is incorrect.',
    );
    // The new password is not what was wrong, though the message names a password too.
    expect(field('Password').getAttribute('aria-invalid')).toBeNull();
    expect(description(field('Password'))).toBe('Leave empty to keep your current password.');
    await waitFor(() => expect(document.activeElement).toBe(current));
  });

  it('ties a taken username to the username field and focuses it', async () => {
    const user = renderRefusingSettings(409, 'That username is taken', 'username');
    await user.type(field('Username'), '2');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    await waitFor(() => expect(field('Username').getAttribute('aria-invalid')).toBe('true'));
    expect(description(field('Username'))).toBe('That username is taken');
    expect(field('Email').getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(field('Username')));
  });

  it('marks the field the server names, whatever the status and the words', async () => {
    const user = renderRefusingSettings(409, 'Someone else gets their mail there.', 'email');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    await waitFor(() => expect(field('Email').getAttribute('aria-invalid')).toBe('true'));
    expect(description(field('Email'))).toBe('Someone else gets their mail there.');
    await waitFor(() => expect(document.activeElement).toBe(field('Email')));
  });

  it('keeps a refusal that names no field a message of the form, even a 403 of a password change', async () => {
    const user = renderRefusingSettings(403, 'Your current password is incorrect.');
    await user.type(field('Password'), 'a brand new secret');
    await user.type(field('Current password'), 'not my password');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Your current password is incorrect.');
    expect(alert.className).toBe('form-error');
    for (const label of ['Password', 'Current password']) {
      expect(field(label).getAttribute('aria-invalid')).toBeNull();
      expect(description(field(label))).not.toContain('incorrect');
    }
  });
});

describe('the profile form while it is saved', () => {
  it('keeps the focus on its busy button, which does not send it again', async () => {
    let answer!: (response: Response) => void;
    const user = renderSettings(() => new Promise<Response>((resolve) => (answer = resolve)));
    await user.type(field('Username'), '2');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    const button = await screen.findByRole('button', { name: 'Pending...' });
    expect(document.activeElement).toBe(button);
    // Busy, not disabled: a browser takes the focus from a disabled button (jsdom does not).
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    // Enter in a field while it is saved sends nothing more.
    await user.type(field('Email'), '{enter}');
    await user.click(button);
    expect(vi.mocked(fetch).mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(
      1,
    );

    answer(
      apiAnswer({ detail: 'That username is taken', code: 'conflict', field: 'username' }, 409),
    );
    // The error that follows finds the keyboard where it was, and takes it to its field.
    await waitFor(() => expect(document.activeElement).toBe(field('Username')));
    expect(
      screen.getByRole('button', { name: 'Update Profile' }).getAttribute('aria-disabled'),
    ).toBe('false');
  });
});
