import { createUser, unique } from './support/api.ts';
import { app, at, checkPage, expect, logIn, test } from './support/app.ts';

test.describe('accounts', () => {
  test('sign up: every validation text, then auto-login and /home after 1.5 s', async ({
    page,
  }) => {
    await page.goto(app('/accounts/signup'));
    await checkPage(page, 'signup');
    const submit = page.getByRole('button', { name: 'Submit' });

    await submit.click();
    // Said once: the focus moves to the first empty field, which is invalid and described by the
    // message (as each empty field is); no alert says it again.
    const fields = [
      page.getByLabel('Username'),
      page.getByLabel('Password', { exact: true }),
      page.getByLabel('Confirm password'),
    ];
    await expect(fields[0]!).toBeFocused();
    for (const input of fields) {
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(/You must fill out all fields\.$/);
    }
    await expect(page.getByText('You must fill out all fields.', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    const username = unique('newbie');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('long enough 1');
    await page.getByLabel('Confirm password').fill('long enough');
    await expect(page.getByText('Passwords must match.', { exact: true })).toBeVisible();
    await submit.click();
    await expect(page.getByText('Passwords must match!', { exact: true })).toBeVisible();

    await page.getByLabel('Confirm password').fill('long enough 1');
    await expect(page.getByText('Passwords must match.', { exact: true })).toHaveCount(0);
    // The error goes as soon as the field that caused it is fixed, before any submit (issue 23 §2).
    await expect(page.getByText('Passwords must match!', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await submit.click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Created user! Redirecting...' }),
    ).toBeVisible();
    await expect(page).toHaveURL(at('/home'));
    // Signed in: the header shows the account and Log Out.
    await expect(page.getByRole('link', { name: 'Log Out' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Account' }).getByText(username),
    ).toBeVisible();
  });

  test('sign up with a taken username says so', async ({ page }) => {
    const existing = await createUser('taken');
    await page.goto(app('/accounts/signup'));
    await page.getByLabel('Username').fill(existing.username);
    await page.getByLabel('Password', { exact: true }).fill('long enough 1');
    await page.getByLabel('Confirm password').fill('long enough 1');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Could not create user account.' }),
    ).toBeVisible();
    await expect(page).toHaveURL(at('/accounts/signup'));
  });

  test('log in: wrong password shows the error inline and as a toast; right one goes to /home', async ({
    page,
  }) => {
    const user = await createUser();
    await page.goto(app('/accounts/login'));
    await checkPage(page, 'login');
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page.locator('.form-error')).toHaveText('Incorrect username or password.');
    const toast = page.getByTestId('toast').filter({ hasText: 'Incorrect username or password.' });
    await expect(toast).toBeVisible();
    // Heard once, at the field the focus moved to: the toast is not announced as well.
    await expect(page.getByLabel('Username')).toBeFocused();
    expect(
      await toast.evaluate((el) => el.closest('[aria-live]')?.getAttribute('aria-live') ?? null),
    ).toBeNull();

    await page.getByLabel('Password').fill(user.password);
    // Changing a field takes the error away at once (issue 23 §2).
    await expect(page.locator('.form-error')).toHaveCount(0);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(at('/home'));
  });

  test('the login guard sends visitors to login with ?prev= and back after signing in', async ({
    page,
  }) => {
    const user = await createUser();
    for (const guarded of [
      '/my/read-history',
      '/following',
      '/my/workspace',
      `/my/settings/${user.id}`,
    ]) {
      await page.goto(app(guarded));
      await expect(page).toHaveURL(
        new RegExp(`${app('/accounts/login/')}\\?prev=${encodeURIComponent(guarded)}$`),
      );
    }
    await page.goto(app('/my/read-history'));
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await expect(page).toHaveURL(at('/my/read-history'));
    await expect(page.getByRole('heading', { level: 1, name: 'Read History' })).toBeVisible();
  });

  test("log out: 'Logged out. Redirecting...' then the landing page after 1 s", async ({
    page,
  }) => {
    const user = await createUser();
    await logIn(page, user);
    await page.getByRole('link', { name: 'Log Out' }).click();
    await expect(page.getByText('Logged out. Redirecting...')).toBeVisible();
    await expect(page).toHaveURL(at('/'));
    await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();
    // The session really ended: guarded pages want a login again.
    await page.goto(app('/following'));
    await expect(page).toHaveURL(/accounts\/login\/\?prev=/);
  });

  test('no-match pages: anywhere, under /accounts and under /my/workspace', async ({ page }) => {
    await page.goto(app('/nowhere/at/all'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'No Match for /nowhere/at/all',
    );
    await checkPage(page, 'no-match');
    await page.goto(app('/accounts/whatever'));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('No Match for');
    await expect(page.getByRole('link', { name: 'Go to the login page' })).toBeVisible();

    const user = await createUser();
    await logIn(page, user);
    await page.goto(app('/my/workspace/nothing-here'));
    await expect(page.getByRole('heading', { level: 1 })).toContainText('No Match for');
    await expect(page.getByRole('link', { name: 'Back to Workspace' })).toBeVisible();
  });
});
