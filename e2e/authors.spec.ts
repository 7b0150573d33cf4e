import { addChapter, createBook, createUser, type User } from './support/api.ts';
import { app, at, checkPage, expect, logIn, signedInPage, test } from './support/app.ts';

let author: User;
let quiet: User;
/** Plain text, shown as typed: the ampersand and the angle brackets are text. */
const BIOGRAPHY = 'Sea stories & <tall> tales.';

test.beforeAll(async () => {
  author = await createUser('storyteller', {
    first_name: 'Mira',
    last_name: 'Vale',
    biography: BIOGRAPHY,
  });
  quiet = await createUser('quiet');
  const book = await createBook(author, { title: 'Salt and Stars', chapters: [] });
  // Eleven published chapters: one more than a page of Recent Work.
  for (let i = 1; i <= 11; i++) await addChapter(author, book.id, { title: `Tide ${i}` });
  await createBook(author, { title: 'Second Shore', chapters: [{ title: 'Landfall' }] });
});

test('profile: name, About, Recent Work with Load More, All Books', async ({ page }) => {
  await page.goto(app(`/authors/${author.username}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Mira Vale' })).toBeVisible();
  await expect(page.getByText(BIOGRAPHY, { exact: true })).toBeVisible();
  // Visitors get no Follow button.
  await expect(page.getByRole('button', { name: 'Follow' })).toHaveCount(0);
  const rows = page.locator('.recent-list li');
  await expect(rows).toHaveCount(10);
  await checkPage(page, 'author-recent');
  await page.getByRole('button', { name: 'Load More' }).click();
  await expect(rows).toHaveCount(12);
  await expect(page.getByRole('button', { name: 'Load More' })).toHaveCount(0);

  await page.getByRole('link', { name: 'All Books' }).click();
  await expect(page).toHaveURL(at(`/authors/${author.username}/all`));
  await expect(page.locator('.cover-grid li')).toHaveCount(2);
  await checkPage(page, 'author-books');

  await page.goto(app(`/authors/${quiet.username}`));
  await expect(page.getByRole('heading', { level: 1, name: quiet.username })).toBeVisible();
  await expect(page.getByText('No biography available')).toBeVisible();
  await expect(page.getByText('No Recent Chapters.')).toBeVisible();
});

test('follow and unfollow, with their toasts, and the Following page', async ({ page }) => {
  const reader = await createUser();
  await logIn(page, reader);
  await page.goto(app(`/authors/${author.username}`));
  await page.getByRole('button', { name: 'Follow' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: `Following ${author.username}` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unfollow' })).toBeVisible();

  await page.goto(app('/following'));
  const card = page.locator('.follow-card', { hasText: 'Mira Vale' });
  await expect(card.getByText(BIOGRAPHY, { exact: true })).toBeVisible();
  await expect(card.getByRole('link', { name: /View Profile/ })).toHaveAttribute(
    'href',
    app(`/authors/${author.username}`),
  );
  await checkPage(page, 'following');

  await card.getByRole('link', { name: /View Profile/ }).click();
  await page.getByRole('button', { name: 'Unfollow' }).click();
  await expect(
    page.getByTestId('toast').filter({ hasText: `Unfollowing ${author.username}` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Follow' })).toBeVisible();
  await page.goto(app('/following'));
  await expect(page.getByText('You are not following anyone yet.')).toBeVisible();

  // Nobody follows themselves: no button on one's own page.
  await page.goto(app(`/authors/${reader.username}`));
  await expect(page.getByRole('heading', { level: 1, name: reader.username })).toBeVisible();
  await expect(page.getByRole('button', { name: /Follow/ })).toHaveCount(0);
});

test('chat between two browsers: Enter sends, Shift+Enter breaks the line, history on join', async ({
  browser,
}) => {
  const alice = await createUser('alice');
  const bob = await createUser('bob');
  const a = await signedInPage(browser, alice);
  const b = await signedInPage(browser, bob);
  for (const page of [a, b]) {
    await page.goto(app(`/authors/${author.username}/chat`));
    await expect(page.getByText('Connected', { exact: true })).toBeVisible();
  }
  await checkPage(a, 'chat');

  const input = a.getByRole('textbox', { name: 'Message' });
  await input.click();
  await input.press('Enter'); // empty: nothing is sent
  await input.pressSequentially('Hello from Alice');
  await input.press('Shift+Enter');
  await input.pressSequentially('second line');
  await input.press('Enter');
  await expect(input).toHaveText('');

  const line = b.locator('.chat-line', { hasText: 'Hello from Alice' });
  await expect(line).toBeVisible();
  await expect(line.locator('br')).toHaveCount(1);
  await expect(line.getByRole('link', { name: alice.username })).toBeVisible();

  const reply = b.getByRole('textbox', { name: 'Message' });
  await reply.click();
  await reply.pressSequentially('<img src=x onerror=alert(1)> hi Alice');
  await b.getByRole('button', { name: 'Send' }).click();
  await expect(a.locator('.chat-line', { hasText: 'hi Alice' })).toBeVisible();

  // Someone joining later sees the history.
  const carol = await signedInPage(browser, await createUser('carol'));
  await carol.goto(app(`/authors/${author.username}/chat`));
  await expect(carol.locator('.chat-line', { hasText: 'Hello from Alice' })).toBeVisible();
  await expect(carol.locator('.chat-line', { hasText: 'hi Alice' })).toBeVisible();
  // The room's own notes come as system frames: shown as notes, with no sender link.
  const note = a.locator('.chat-line.is-server', { hasText: 'has connected.' }).last();
  await expect(note).toBeVisible();
  await expect(note.getByRole('link')).toHaveCount(0);

  // Visitors are asked to log in.
  const visitor = await browser.newPage();
  await visitor.goto(app(`/authors/${author.username}/chat`));
  await expect(visitor.getByText('to join the chat.')).toBeVisible();
  for (const p of [a, b, carol, visitor]) await p.context().close();
});
