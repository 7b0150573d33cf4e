import { createBook, createUser } from './support/api.ts';
import { app, at, checkPage, expect, logIn, test } from './support/app.ts';

test('home page when signed in: banner, recent books with covers, top books, author picks', async ({
  page,
}) => {
  const author = await createUser('featured', { first_name: 'Iris', last_name: 'Bell' });
  const book = await createBook(author, {
    title: 'Covered Book',
    cover: true,
    chapters: [{ title: 'One' }],
  });
  await createBook(author, { title: 'Coverless Book', chapters: [{ title: 'One' }] });
  const reader = await createUser();
  await logIn(page, reader);
  await expect(page.getByRole('link', { name: 'Explore' })).toHaveAttribute('href', app('/books'));
  const recent = page.getByRole('list', { name: 'Recent books' });
  await expect(recent.getByRole('link', { name: book.title })).toBeVisible();
  await expect(recent.getByRole('link', { name: 'Coverless Book' })).toHaveCount(0);
  for (const heading of ['Top books', 'Author of the month', 'Rising author', 'Featured authors']) {
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
  }
  await expect(page.locator('.home-section .status-loading')).toHaveCount(0);
  await checkPage(page, 'home');
  // The index route is the home page for a signed-in user.
  await page.goto(app('/'));
  await expect(page.getByRole('heading', { level: 2, name: 'Recent books' })).toBeVisible();
});

test('sidebar: signed-in links, closes after a link on screens up to 768px, stays open on wide ones', async ({
  page,
}) => {
  const user = await createUser();
  await logIn(page, user);
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await page.getByRole('button', { name: 'Open menu' }).click();
  for (const name of [
    'Home',
    'Books',
    'Genres',
    'Profile Page',
    'Workspace',
    'Settings',
    'Read History',
    'Following',
  ]) {
    await expect(sidebar.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(sidebar.getByRole('heading', { name: user.username })).toBeVisible();
  await checkPage(page, 'sidebar-desktop');
  await sidebar.getByRole('link', { name: 'Genres' }).click();
  await expect(page).toHaveURL(at('/books/genres'));
  await expect(sidebar).toHaveClass(/is-open/);

  await page.setViewportSize({ width: 768, height: 900 });
  await sidebar.getByRole('link', { name: 'Books', exact: true }).click();
  await expect(page).toHaveURL(at('/books'));
  await expect(sidebar).not.toHaveClass(/is-open/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(sidebar).toHaveClass(/is-open/);
  await page.keyboard.press('Escape');
  await expect(sidebar).not.toHaveClass(/is-open/);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await sidebar.getByRole('link', { name: 'Workspace' }).click();
  await expect(page).toHaveURL(at('/my/workspace'));
  await expect(page.getByRole('heading', { level: 1, name: 'Workspace' })).toBeVisible();
  await expect(sidebar).not.toHaveClass(/is-open/);
});

test('works on a 360px phone, in the dark theme, with the keyboard', async ({ browser }) => {
  const author = await createUser('phone');
  const book = await createBook(author, {
    title: 'Pocket Tales',
    chapters: [{ title: 'Small Hours' }],
  });
  const context = await browser.newContext({
    viewport: { width: 360, height: 740 },
    colorScheme: 'dark',
  });
  const page = await context.newPage();
  for (const [name, path] of [
    ['mobile-landing', '/'],
    ['mobile-books', '/books'],
    ['mobile-book', `/books/${book.id}`],
    ['mobile-reader', `/books/${book.id}/chapters/${book.chapters[0]!.id}`],
  ] as const) {
    await page.goto(app(path));
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await checkPage(page, name);
  }
  // Keyboard: the skip link comes first and lands in the main content.
  await page.goto(app('/books'));
  await expect(page.getByRole('heading', { level: 1, name: 'All Books' })).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  await context.close();
});

test('the error page when a page cannot load', async ({ page }) => {
  // A lazily loaded part of the app that fails to arrive shows the error page, not a blank screen.
  await page.route(/\/assets\/books-.*\.js$/, (route) => route.abort());
  await page.goto(app('/books/genres'));
  await expect(
    page.getByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
  await checkPage(page, 'error');
});
