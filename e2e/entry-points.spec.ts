import type { Page } from '@playwright/test';
import {
  apiAs,
  createBook,
  createUser,
  follow,
  type CreatedBook,
  type User,
} from './support/api.ts';
import { app, at, expect, logIn, snapshot, test } from './support/app.ts';

/*
 * Issue 23 §7: the features beyond the spec are found where a person looks for them, not only in
 * the burger sidebar, which these tests never open: My Library from the header and the book page,
 * notes from the reader, the private feed from settings and following, the inbox from the bell.
 */

let writer: User;
let book: CreatedBook;

test.beforeAll(async () => {
  writer = await createUser('ep_writer');
  book = await createBook(writer, { chapters: [{ title: 'Harbour' }, { title: 'Open Sea' }] });
});

/** A reader who follows the writer, has the book on a shelf, a note in it and a follower. */
async function reader(): Promise<User> {
  const me = await createUser('ep_reader');
  await follow(me, writer);
  const call = (method: string, path: string, body: unknown) => apiAs(me, method, path, body);
  await call('PUT', `/api/my/library/${book.id}`, { status: 'reading' });
  await call('POST', '/api/my/notes', {
    book_id: book.id,
    chapter_id: book.chapters[0]!.id,
    body: 'A note to find again.',
  });
  return me;
}

const sidebarStaysShut = (page: Page) =>
  expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

/** The part of a page a link led to: shown, and holding focus. */
async function expectLandedOn(page: Page, id: string, heading: string) {
  const part = page.locator(`#${id}`);
  await expect(part.getByRole('heading', { level: 2, name: heading })).toBeInViewport();
  await expect(part).toBeFocused();
}

test('My Library from the header and the book page; notes from the reader', async ({ page }) => {
  test.setTimeout(90_000);
  const me = await reader();
  await logIn(page, me);

  await page.getByRole('banner').getByRole('link', { name: 'My Library' }).click();
  await expect(page).toHaveURL(at('/my/library'));
  await expect(page.getByRole('heading', { level: 1, name: 'My Library' })).toBeVisible();

  await page.goto(app(`/books/${book.id}`));
  await page.getByRole('link', { name: 'See My Library' }).click();
  await expect(page).toHaveURL(at('/my/library'));
  await expect(page.getByRole('link', { name: book.title }).first()).toBeVisible();

  // The reader shows the chapter's notes, and leads to all of them.
  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
  await expect(page.getByRole('heading', { name: 'My notes on this chapter' })).toBeVisible();
  await expect(page.getByText('A note to find again.')).toBeVisible();
  await page.getByRole('link', { name: 'All my notes' }).click();
  await expect(page).toHaveURL(/\/my\/library#my-notes$/);
  await expectLandedOn(page, 'my-notes', 'My notes');
  await expect(page.locator('#my-notes').getByText('A note to find again.')).toBeVisible();
  await sidebarStaysShut(page);
});

test('the private feed from settings and from following; the inbox from the bell', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const me = await reader();
  const fan = await createUser('ep_fan');
  await follow(fan, me);
  await logIn(page, me);

  await page.goto(app(`/my/settings/${me.id}`));
  await page.getByRole('link', { name: 'make or replace your private feed address' }).click();
  await expect(page).toHaveURL(/\/my\/library#private-feed$/);
  await expectLandedOn(page, 'private-feed', 'Private feed');

  await page.goto(app('/following'));
  await page.getByRole('link', { name: 'your private feed' }).click();
  await expect(page).toHaveURL(/\/my\/library#private-feed$/);
  await expectLandedOn(page, 'private-feed', 'Private feed');
  await page.getByRole('button', { name: 'Create private feed address' }).click();
  await expect(page.getByLabel('Your private feed address (shown only now)')).toHaveValue(
    /\/api\/feeds\/[\w-]{43}\.atom$/,
  );

  // The inbox: the bell in the header, with the unread count in its name.
  const bell = page.getByRole('banner').getByRole('button', { name: 'Notifications, 1 unread' });
  await bell.click();
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  await expect(page.locator('.bell-list li').filter({ hasText: fan.username })).toBeVisible();
  await sidebarStaysShut(page);
});

test('at phone width the header still offers My Library and the inbox', async ({ browser }) => {
  const me = await reader();
  const context = await browser.newContext({ viewport: { width: 375, height: 760 } });
  const page = await context.newPage();
  try {
    await logIn(page, me);
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('button', { name: 'Notifications' })).toBeVisible();
    await snapshot(page, 'mobile-home-signed-in');
    await banner.getByRole('link', { name: 'My Library' }).click();
    await expect(page).toHaveURL(at('/my/library'));
    await sidebarStaysShut(page);
  } finally {
    await context.close();
  }
});
