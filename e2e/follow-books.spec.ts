import { addChapter, apiAs, createBook, createUser, follow } from './support/api.ts';
import {
  app,
  checkPage,
  expect,
  expectAccessible,
  liveSocketOpen,
  logIn,
  test,
} from './support/app.ts';

/** Issue 19: a reader follows a book, finds it under Following → Books, hears of a new chapter once; blocks and mutes in Settings. */

test('follow a book, see it with its unread count, get its new chapter once', async ({ page }) => {
  const author = await createUser('serialist');
  const reader = await createUser();
  const book = await createBook(author, {
    chapters: [{ title: 'The first night' }, { title: 'The second night' }],
  });
  // The reader follows the author too: the new chapter must still arrive once.
  await follow(reader, author);
  await logIn(page, reader);

  await page.goto(app(`/books/${book.id}`));
  const followButton = page.getByRole('button', { name: 'Follow', exact: true });
  await expect(followButton).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByText('0 followers')).toBeVisible();
  await followButton.click();
  const unfollowButton = page.getByRole('button', { name: 'Unfollow' });
  await expect(unfollowButton).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('1 follower', { exact: true })).toBeVisible();
  await checkPage(page, 'book-followed');

  // Following → Books, reached with the keyboard; the tab is in the address.
  await page.goto(app('/following'));
  const authorsTab = page.getByRole('tab', { name: 'Authors' });
  await expect(authorsTab).toHaveAttribute('aria-selected', 'true');
  await authorsTab.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Books' })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/\/following\?tab=books$/);
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('link', { name: book.title })).toBeVisible();
  await expect(panel.getByText('2 unread of 2')).toBeVisible();
  await checkPage(page, 'following-books');

  // The reader reads one chapter: one unread left (after a reload, the tab is still Books).
  await apiAs(reader, 'POST', `/api/books/${book.id}/chapters/${book.chapters[0]!.id}/history`);
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Books' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel').getByText('1 unread of 2')).toBeVisible();

  // A new chapter: one live toast and one inbox row, though the reader follows book and author.
  await liveSocketOpen(page);
  await addChapter(author, book.id, { title: 'The third night' });
  const toasts = page.getByTestId('toast').filter({ hasText: 'The third night' });
  await expect(toasts).toHaveCount(1);
  await page.waitForTimeout(1000);
  await expect(toasts).toHaveCount(1);
  await page.getByRole('button', { name: /Notifications/ }).click();
  await expect(
    page.locator('.bell-list').getByRole('link', { name: /The third night/ }),
  ).toHaveCount(1);
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByRole('tabpanel').getByText('2 unread of 3')).toBeVisible();

  // Unfollowing from the book page takes the book off the list.
  await page.goto(app(`/books/${book.id}`));
  await page.getByRole('button', { name: 'Unfollow' }).click();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  await page.goto(app('/following?tab=books'));
  await expect(page.getByText('You are not following any book yet.')).toBeVisible();
});

test('a visitor and the author see the button disabled, with why', async ({ page }) => {
  const author = await createUser('writer');
  const book = await createBook(author, { chapters: [{ title: 'Alone' }] });
  await page.goto(app(`/books/${book.id}`));
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeDisabled();
  await expect(page.getByText('to follow this book.')).toBeVisible();
  await expectAccessible(page, 'book-visitor');

  await logIn(page, author);
  await page.goto(app(`/books/${book.id}`));
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeDisabled();
  await expect(page.getByText(/This is your book/)).toBeVisible();
});

test('blocks and mutes in Settings: add by username, clear errors, remove', async ({ page }) => {
  const me = await createUser('author');
  const pest = await createUser('pest');
  const loud = await createUser('loud');
  await logIn(page, me);
  await page.goto(app(`/my/settings/${me.id}`));

  const blocks = page.getByRole('region', { name: 'Blocked users' });
  const mutes = page.getByRole('region', { name: 'Muted users' });
  await expect(blocks.getByText('You have not blocked anyone.')).toBeVisible();
  await expect(mutes.getByText('You have not muted anyone.')).toBeVisible();

  await blocks.getByLabel('Username to block').fill('no_such_person_here');
  await blocks.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(blocks.getByRole('alert')).toHaveText('User not found');
  await blocks.getByLabel('Username to block').fill(me.username);
  await blocks.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(blocks.getByRole('alert')).toHaveText('You cannot block yourself');
  await blocks.getByLabel('Username to block').fill(pest.username);
  await blocks.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(blocks.getByRole('link', { name: pest.username })).toBeVisible();
  await expect(blocks.getByRole('alert')).toHaveCount(0);

  await mutes.getByLabel('Username to mute').fill(loud.username);
  await mutes.getByLabel('Username to mute').press('Enter');
  await expect(mutes.getByRole('link', { name: loud.username })).toBeVisible();
  await checkPage(page, 'settings-blocks-mutes');

  // What the lists say is what the server holds: the blocked user cannot follow my book.
  const book = await createBook(me, { chapters: [{ title: 'Mine' }] });
  await expect(apiAs(pest, 'POST', `/api/books/${book.id}/follow`)).rejects.toThrow(/403/);

  await blocks.getByRole('button', { name: `Unblock ${pest.username}` }).click();
  await expect(blocks.getByText('You have not blocked anyone.')).toBeVisible();
  await mutes.getByRole('button', { name: `Unmute ${loud.username}` }).click();
  await expect(mutes.getByText('You have not muted anyone.')).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Blocked users' }).getByText('You have not blocked anyone.'),
  ).toBeVisible();
});

test("a blocked reader is told so in the author's chat room", async ({ page }) => {
  const author = await createUser('host');
  const pest = await createUser('pest');
  await apiAs(author, 'POST', '/api/my/blocks', { username: pest.username });
  await logIn(page, pest);
  await page.goto(app(`/authors/${author.username}/chat`));
  await expect(page.getByRole('alert')).toHaveText('The author has blocked you');
  await expect(page.getByText('Disconnected')).toBeVisible();
  await expectAccessible(page, 'chat-blocked');
});
