import { createUser, pngImage } from './support/api.ts';
import { app, checkPage, expect, logIn, test } from './support/app.ts';

test('settings: avatar upload and the profile form', async ({ page }) => {
  const user = await createUser();
  await logIn(page, user);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('complementary', { name: 'Sidebar' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
  await checkPage(page, 'settings');

  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await pngImage('#2e7d32') });
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Updated profile avatar.' }),
  ).toBeVisible();
  await expect(page.locator('.settings-card img.avatar')).toHaveAttribute('src', /uploads/);

  await page.getByLabel('First name').fill('Nora');
  await page.getByLabel('Last name').fill('Finch');
  await page.getByLabel('Biography').fill('Reads everything twice.');
  await page.getByLabel('Email').fill('nora@example.com');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Successfully updated!')).toBeVisible();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Updated author profile' }),
  ).toBeVisible();

  await page.goto(app(`/authors/${user.username}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nora Finch' })).toBeVisible();
  await expect(page.getByText('Reads everything twice.')).toBeVisible();

  // A refused update says so.
  await page.goto(app(`/my/settings/${user.id}`));
  await page.getByLabel('Email').fill('not-an-email');
  await page
    .getByLabel('Email')
    .evaluate((el: HTMLInputElement) => el.form?.setAttribute('novalidate', ''));
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Could not update author profile' }),
  ).toBeVisible();
});

test('settings: changing the password asks for the current one once the session is old', async ({
  page,
}) => {
  const user = await createUser();
  await logIn(page, user);
  await page.goto(app(`/my/settings/${user.id}`));
  const form = page.locator('form', { has: page.getByRole('button', { name: 'Update Profile' }) });
  const current = page.getByLabel('Current password');
  const currentHelp = 'Needed to change your password when you signed in more than 10 minutes ago.';
  /**
   * The page says `message` once: the focus moves to the current password field, which is invalid
   * and described by its help and the message, and no alert says it again.
   */
  const saidAtCurrent = async (message: string) => {
    await expect(current).toBeFocused();
    await expect(current).toHaveAttribute('aria-invalid', 'true');
    await expect(current).toHaveAccessibleDescription(`${currentHelp} ${message}`);
    await expect(form.getByText(message, { exact: true })).toBeVisible();
    await expect(form.getByRole('alert')).toHaveCount(0);
  };

  // A wrong current password is refused, and the page says why.
  await page.getByLabel('Password', { exact: true }).fill('a brand new secret');
  await current.fill('not my password');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await saidAtCurrent('Your current password is incorrect.');

  // More than 10 minutes after signing in, a change without the current password is refused
  // (the server's answer, stood in for here: the session is only seconds old).
  const signInAgain =
    'To change your password, enter your current password, or sign out and sign in again: you signed in more than 10 minutes ago.';
  await page.route('**/api/authors/*', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({
            detail: signInAgain,
            code: 'forbidden',
            field: 'current_password',
          }),
        })
      : route.fallback(),
  );
  await current.fill('');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await saidAtCurrent(signInAgain);
  await page.unroute('**/api/authors/*');

  // With the right one it goes through, and the new password signs in.
  await page.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Successfully updated!')).toBeVisible();
  await page.context().clearCookies();
  await logIn(page, { ...user, password: 'a brand new secret' });
});
