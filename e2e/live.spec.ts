import { addChapter, createBook, createUser, follow } from './support/api.ts';
import { app, at, expect, liveSocketOpen, signedInPage, test } from './support/app.ts';

test('a follower sees a live CHAPTER toast when the author publishes, with a View. link to it', async ({
  browser,
}) => {
  const author = await createUser('publisher');
  const reader = await createUser();
  const book = await createBook(author, { chapters: [{ title: 'First light' }] });
  await follow(reader, author);
  const page = await signedInPage(browser, reader);
  const socketUrls: string[] = [];
  page.on('websocket', (socket) => socketUrls.push(socket.url()));
  await page.goto(app('/books'));
  // Publish once the live connection is up.
  await liveSocketOpen(page);
  // Opened with single-use tickets (the page left behind may have opened one too): the session
  // token stays out of socket URLs.
  expect(socketUrls.length).toBeGreaterThan(0);
  for (const url of socketUrls) {
    expect(url).toMatch(/\/ws\?ticket=[\w-]+$/);
    expect(url).not.toContain(reader.token);
  }
  const chapter = await addChapter(author, book.id, { title: 'Second light' });

  const toast = page.getByTestId('toast').filter({ hasText: 'Second light' });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveClass(/toast-chapter_update/);
  await toast.getByRole('link', { name: 'View.' }).click();
  await expect(page).toHaveURL(at(`/books/${book.id}/chapters/${chapter.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Second light' })).toBeVisible();

  // The inbox keeps it too.
  await page.getByRole('button', { name: /Notifications/ }).click();
  await expect(
    page.locator('.bell-list').getByRole('link', { name: /Second light/ }),
  ).toBeVisible();
  await page.context().close();
});

test('an author sees a live FOLLOW toast linking to the new follower', async ({ browser }) => {
  const author = await createUser('popular');
  const fan = await createUser('fan');
  const page = await signedInPage(browser, author);
  await liveSocketOpen(page);
  await follow(fan, author);
  const toast = page.getByTestId('toast').filter({ hasText: fan.username });
  await expect(toast).toBeVisible();
  await toast.getByRole('link', { name: 'View.' }).click();
  await expect(page).toHaveURL(at(`/authors/${fan.username}`));
  await page.context().close();
});
