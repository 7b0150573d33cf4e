import { createBook, createUser, type CreatedBook, type User } from './support/api.ts';
import { app, at, checkPage, expect, logIn, test } from './support/app.ts';

/* A signed-in reader: history on Next and after 60 s, read checkmarks, the history page, settings in the account. */
let author: User;
let book: CreatedBook;

test.beforeAll(async () => {
  author = await createUser('novelist');
  book = await createBook(author, {
    chapters: [{ title: 'Arrival' }, { title: 'Departure' }, { title: 'Return' }],
  });
});

test('Next records history at once; the book shows checkmarks; the history page lists and deletes', async ({
  page,
}) => {
  const reader = await createUser();
  await logIn(page, reader);
  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
  await page.getByRole('link', { name: 'Next Chapter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Departure' })).toBeVisible();

  await page.goto(app(`/books/${book.id}`));
  const arrival = page.locator('.chapter-list li', { hasText: 'Arrival' });
  await expect(arrival.getByText('Read', { exact: true })).toBeAttached();
  await expect(
    page.locator('.chapter-list li', { hasText: 'Departure' }).locator('.read-mark'),
  ).toHaveCount(0);
  await checkPage(page, 'book-signed-in');

  await page.goto(app('/my/read-history'));
  const row = page.getByRole('row', { name: /Arrival/ });
  await expect(row.getByRole('link', { name: book.title })).toHaveAttribute(
    'href',
    app(`/books/${book.id}`),
  );
  for (const column of ['Cover', 'Book Title', 'Title', 'Read On', 'View', 'Delete']) {
    await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
  }
  await checkPage(page, 'read-history');
  await row.getByRole('button', { name: /Delete/ }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: 'Deleted read history item.' }),
  ).toBeVisible();
  await expect(page.getByText(/No chapters read yet/)).toBeVisible();
});

test('history is recorded after 60 s on a chapter (and 409s are ignored)', async ({ page }) => {
  const reader = await createUser();
  await page.clock.install();
  await logIn(page, reader);
  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[2]!.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Return' })).toBeVisible();
  // The 60 s start once the page knows the reader is signed in, which on a loaded machine can
  // come after the chapter shows: wait for it, or the clock below is read too early.
  await expect(page.getByRole('link', { name: 'Log Out' })).toBeVisible();
  const posts: number[] = [];
  page.on('response', (r) => {
    if (
      r.url().endsWith(`/chapters/${book.chapters[2]!.id}/history`) &&
      r.request().method() === 'POST'
    )
      posts.push(r.status());
  });
  // The page's 60 s began as the chapter rendered, a moment ago: up to seconds on a loaded
  // machine. Its time stops a second from now, so that from here on only runFor moves it; the
  // checks leave 3 s for that moment.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  await page.clock.runFor(56_000);
  await page.waitForTimeout(300);
  expect(posts).toEqual([]);
  await page.clock.runFor(3_000);
  await expect.poll(() => posts.length).toBe(1);
  expect(posts[0]).toBeLessThan(300);
  await page.clock.resume();

  // Reading the same chapter again: the server may answer 409, the page shows nothing about it.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Return' })).toBeVisible();
  await page.clock.runFor(60_000);
  await expect(page.getByTestId('toast')).toHaveCount(0);

  await page.goto(app('/my/read-history'));
  await expect(page.getByRole('row', { name: /Return/ }).first()).toBeVisible();
  await page
    .getByRole('row', { name: /Return/ })
    .first()
    .getByRole('button', { name: /^Read Now: / })
    .click();
  await expect(page).toHaveURL(at(`/books/${book.id}/chapters/${book.chapters[2]!.id}`));
});

test('reader settings are saved in the account when signed in', async ({ page, browser }) => {
  const reader = await createUser();
  await logIn(page, reader);
  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
  await page.getByRole('button', { name: 'Reading settings' }).click();
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/my/reader-settings') && r.request().method() === 'PUT',
  );
  await page.getByRole('radio', { name: 'Dark' }).check();
  expect((await saved).ok()).toBe(true);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await checkPage(page, 'reader-dark');

  // Another browser, same account: the settings follow the reader.
  const other = await browser.newContext();
  const second = await other.newPage();
  await logIn(second, reader);
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'dark');
  await other.close();
});

test('a reader counts the chapters they can read: a draft between two leaves no gap', async ({
  page,
}) => {
  const serial = await createBook(author, {
    chapters: [{ title: 'Dawn' }, { title: 'Unfinished', publish: false }, { title: 'Dusk' }],
  });
  await page.goto(app(`/books/${serial.id}`));
  const rows = page.locator('.chapter-list li');
  await expect(rows).toHaveCount(2);
  expect(await rows.locator('.chapter-number').allTextContents()).toEqual(['1', '2']);
  await page.goto(app(`/books/${serial.id}/chapters/${serial.chapters[2]!.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Dusk' })).toBeVisible();
  await expect(page.locator('.reader-kicker')).toHaveText('Chapter 2');
});
