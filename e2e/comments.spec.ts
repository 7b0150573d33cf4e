import { apiAs, createBook, createUser, root, signUpOnce, type User } from './support/api.ts';
import {
  app,
  at,
  expect,
  expectAccessible,
  liveSocketOpen,
  signedInPage,
  test,
} from './support/app.ts';

/**
 * Issue 19 in the browser: a reader comments on a paragraph, the author is told live and
 * replies, the reader is told of the reply; spoilers stay hidden until revealed; a reader the
 * author blocked is refused with a message and keeps their text; the pages stay accessible.
 */

const CONTENT =
  '<p>The lighthouse stood alone.</p><p>Its keeper had not spoken in years.</p><p>Then the ship came.</p>';

let author: User;
let reader: User;
let book: { id: number; chapters: Array<{ id: number; title: string }> };
const chapterPath = () => `/books/${book.id}/chapters/${book.chapters[0]!.id}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  author = await createUser('keeper');
  reader = await createUser('sailor');
  book = await createBook(author, { chapters: [{ title: 'The Keeper', content: CONTENT }] });
});

test('a reader comments on a paragraph, the author gets COMMENT and replies, the reader gets REPLY', async ({
  browser,
}) => {
  const authorPage = await signedInPage(browser, author);
  await liveSocketOpen(authorPage);

  const page = await signedInPage(browser, reader);
  await page.goto(app(chapterPath()));
  await expect(page.getByRole('heading', { level: 1, name: 'The Keeper' })).toBeVisible();
  // The comments come after the text, on their own.
  const section = page.locator('section.comments');
  await expect(section.getByText('No comments yet.')).toBeVisible();

  // Select the second paragraph: "Comment on this paragraph" sits beside "Add note".
  await page.locator('.reader-content > p').nth(1).click({ clickCount: 3 });
  await expect(page.getByRole('button', { name: 'Add note' })).toBeVisible();
  await page.getByRole('button', { name: 'Comment on this paragraph' }).click();
  const thread = page.getByRole('dialog', { name: 'Paragraph 2' });
  await expect(thread).toBeVisible();
  await expect(thread.getByRole('heading', { name: 'Paragraph 2' })).toBeFocused();
  await expect(thread.getByText('Its keeper had not spoken in years.')).toBeVisible();
  const box = thread.getByLabel('Comment on this paragraph');
  await box.fill('Why silent? ');
  await box.press('End');
  await box.pressSequentially('he lost his wife');
  // Escape while the comment holds text keeps the thread open, and the text.
  await box.press('Escape');
  await expect(thread).toBeVisible();
  await expect(box).toHaveValue('Why silent? he lost his wife');
  // Mark "he lost his wife" as a spoiler with the toolbar.
  await box.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(12, el.value.length));
  await thread.getByRole('button', { name: 'Spoiler' }).click();
  await thread.getByRole('button', { name: 'Post comment' }).click();
  await expect(box).toHaveValue('');
  const mine = thread.getByRole('article', { name: /^Comment by/ });
  await expect(mine).toContainText('Why silent?');
  // The author is told live and follows the toast at once: it shows for 10 s only, and the
  // reader's checks below can take longer than that on a busy machine.
  const toast = authorPage.getByTestId('toast').filter({ hasText: 'The Keeper' });
  await expect(toast).toBeVisible();
  await toast.getByRole('link', { name: 'View.' }).click();
  await expect(authorPage).toHaveURL(at(chapterPath()));
  // The spoiler is hidden until clicked: a button, not expanded, its text out of sight.
  const spoiler = mine.getByRole('button', { name: 'Spoiler', exact: true });
  await expect(spoiler).toHaveAttribute('aria-expanded', 'false');
  await expect(mine.getByText('he lost his wife')).toBeHidden();
  await expectAccessible(page, 'the reader with a paragraph thread open');
  await page.keyboard.press('Escape');
  await expect(thread).toBeHidden();
  // The margin shows the paragraph's count; Enter opens its thread and Escape gives focus back.
  const count = page.getByRole('button', { name: '1 comment on paragraph 2' });
  await expect(count).toBeVisible();
  await count.focus();
  await page.keyboard.press('Enter');
  await expect(thread).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(count).toBeFocused();

  // The author, on the chapter from the toast, answers in the thread.
  const authorSection = authorPage.locator('section.comments');
  const theirs = authorSection.getByRole('article', { name: /^Comment by/ }).first();
  await expect(theirs).toContainText('Why silent?');
  // Revealed with Enter.
  const hidden = theirs.getByRole('button', { name: 'Spoiler', exact: true });
  await expect(theirs.getByText('he lost his wife')).toBeHidden();
  await hidden.focus();
  await authorPage.keyboard.press('Enter');
  await expect(theirs.locator('.spoiler')).toHaveAttribute('aria-expanded', 'true');
  await expect(theirs.getByText('he lost his wife')).toBeVisible();
  await theirs.getByRole('button', { name: 'Reply' }).click();
  await authorSection.getByLabel(/^Reply to/).fill('He will tell you himself.');
  await authorSection.getByRole('button', { name: 'Reply', exact: true }).last().click();
  const reply = authorSection.getByRole('article', { name: /^Comment by/ }).filter({
    hasText: 'He will tell you himself.',
  });
  await expect(reply).toBeVisible();
  await expect(reply.getByText('Author', { exact: true })).toBeVisible();

  // The reader hears of the reply, and follows the toast while it shows.
  const replyToast = page.getByTestId('toast').filter({ hasText: /repl/i });
  await expect(replyToast).toBeVisible();
  await replyToast.getByRole('link', { name: 'View.' }).click();
  await expect(page).toHaveURL(at(chapterPath()));
  await expectAccessible(authorPage, 'the author answering in the comments');
  const readerSection = page.locator('section.comments');
  await readerSection.getByRole('button', { name: '1 reply' }).click();
  await expect(readerSection.getByText('He will tell you himself.')).toBeVisible();
  // The inbox keeps it, linking to the chapter.
  await page.getByRole('button', { name: /Notifications/ }).click();
  await expect(page.locator('.bell-list').getByRole('link', { name: /replied/ })).toHaveAttribute(
    'href',
    app(chapterPath()),
  );
  await page.keyboard.press('Escape');

  // The chapter's like: a toggle with its count.
  const like = page.getByRole('button', { name: /Like this chapter/ });
  await like.click();
  await expect(page.getByRole('button', { name: /Liked/ }).first()).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.locator('.chapter-like')).toContainText('1 like');

  await authorPage.context().close();
  await page.context().close();
});

test('a comment typed under one chapter does not follow the reader to the next', async ({
  browser,
}) => {
  const serial = await createBook(author, {
    chapters: [
      { title: 'First Light', content: CONTENT },
      { title: 'Second Light', content: CONTENT },
    ],
  });
  const page = await signedInPage(browser, reader);
  await page.goto(app(`/books/${serial.id}/chapters/${serial.chapters[0]!.id}`));
  await page.getByLabel('Comment on this chapter').fill('About the ending of the first');
  await page.getByRole('link', { name: 'Next Chapter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Second Light' })).toBeVisible();
  await expect(page.getByLabel('Comment on this chapter')).toHaveValue('');
});

test('on a phone, a paragraph thread opens as a bottom sheet', async ({ browser }) => {
  const page = await signedInPage(browser, reader);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto(app(chapterPath()));
  await page.getByRole('button', { name: /on paragraph 2$/ }).click();
  const sheet = page.getByRole('dialog', { name: 'Paragraph 2' });
  await expect(sheet).toBeVisible();
  const box = (await sheet.boundingBox())!;
  expect(box.width).toBeCloseTo(390, 0);
  expect(box.y + box.height).toBeCloseTo(800, 0);
  expect(box.y).toBeGreaterThan(100);
  await page.context().close();
});

test('a reader the author blocked is refused with a message and keeps their text', async ({
  browser,
}) => {
  const blocked = await createUser('pest');
  await apiAs(author, 'POST', '/api/my/blocks', { username: blocked.username });
  const page = await signedInPage(browser, blocked);
  await page.goto(app(chapterPath()));
  const section = page.locator('section.comments');
  const box = section.getByLabel('Comment on this chapter');
  await box.fill('Let me in.');
  await section.getByRole('button', { name: 'Post comment' }).click();
  await expect(section.getByRole('alert')).toHaveText('The author has blocked you');
  await expect(box).toHaveValue('Let me in.');
  await page.context().close();
});

test('the author locks comments in the chapter editor and in the book details; readers see them closed', async ({
  browser,
}) => {
  const locked = await createBook(author, { chapters: [{ title: 'Quiet' }, { title: 'Calm' }] });
  const [quiet, calm] = locked.chapters;
  const authorPage = await signedInPage(browser, author);
  // The chapter editor's toggle locks one chapter.
  await authorPage.goto(app(`/my/workspace/books/${locked.id}/chapters/${quiet!.id}`));
  await authorPage.getByRole('checkbox', { name: 'Lock comments' }).check();
  await expect(
    authorPage.getByTestId('toast').filter({ hasText: 'Comments locked on this chapter.' }),
  ).toBeVisible();
  const page = await signedInPage(browser, reader);
  await page.goto(app(`/books/${locked.id}/chapters/${quiet!.id}`));
  await expect(page.getByText('Comments are closed.')).toBeVisible();
  await expect(page.getByLabel('Comment on this chapter')).toHaveCount(0);
  await page.goto(app(`/books/${locked.id}/chapters/${calm!.id}`));
  await expect(page.getByLabel('Comment on this chapter')).toBeVisible();

  // The book details' toggle locks every chapter of the book.
  await authorPage.goto(app(`/my/workspace/books/${locked.id}`));
  await authorPage.getByRole('checkbox', { name: /Lock comments/ }).check();
  await authorPage.getByRole('button', { name: 'Save Details' }).click();
  await expect(
    authorPage.getByTestId('toast').filter({ hasText: 'Updated Book Details' }),
  ).toBeVisible();
  await page.reload();
  await expect(page.getByText('Comments are closed.')).toBeVisible();
  await authorPage.context().close();
  await page.context().close();
});

test('the reports page tells a reader who is no operator that they are not allowed', async ({
  browser,
}) => {
  const page = await signedInPage(browser, reader);
  // No way to it in the menu: only operators have the Reports link.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('link', { name: 'Following' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reports' })).toHaveCount(0);
  await page.goto(app('/admin/reports'));
  await expect(page.getByText(/not allowed/)).toBeVisible();
  await expectAccessible(page, 'the reports page for a non-operator');
  await page.context().close();
});

/** The operator named in global-setup.ts (ADMIN_USERNAMES), signed up once per database. */
const operator = () => signUpOnce('e2e_operator');

test('a reader reports a comment; the operator dismisses, deletes and suspends, each confirmed', async ({
  browser,
}) => {
  const admin = await operator();
  const writers = [await createUser('w1'), await createUser('w2'), await createUser('w3')];
  const ids: number[] = [];
  for (const [i, writer] of writers.entries()) {
    const made = await apiAs<{ id: number }>(
      writer,
      'POST',
      `/api/chapters/${book.chapters[0]!.id}/comments`,
      { body: `<p>reported words ${i}</p>` },
    );
    ids.push(made.id);
  }
  // The first through the dialog, as a reader would; the others through the API.
  const page = await signedInPage(browser, reader);
  await page.goto(app(chapterPath()));
  const target = page
    .locator('section.comments')
    .getByRole('article')
    .filter({ hasText: 'reported words 0' });
  await target.getByRole('button', { name: 'Report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this comment' });
  await dialog.getByLabel(/Why/).fill('rude to everyone');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Thank you' })).toBeVisible();
  await page.context().close();
  for (const id of ids.slice(1))
    await apiAs(reader, 'POST', `/api/comments/${id}/report`, { reason: `bad ${id}` });

  // An operator finds the reports page in the menu (their account says is_operator).
  const adminPage = await signedInPage(browser, admin);
  await adminPage.getByRole('button', { name: 'Open menu' }).click();
  await adminPage.getByRole('link', { name: 'Reports' }).click();
  await expect(adminPage).toHaveURL(at('/admin/reports'));
  const reportOf = (i: number) =>
    adminPage.getByRole('article').filter({ hasText: `reported words ${i}` });
  await expect(reportOf(0)).toContainText('rude to everyone');
  await expectAccessible(adminPage, 'the reports page');
  const confirm = async (button: string) => {
    const modal = adminPage.getByRole('dialog');
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: button }).click();
  };

  await reportOf(0).getByRole('button', { name: 'Dismiss' }).click();
  await confirm('Dismiss');
  await expect(reportOf(0)).toHaveCount(0);

  await reportOf(1).getByRole('button', { name: 'Delete comment' }).click();
  await confirm('Delete comment');
  await expect(reportOf(1)).toHaveCount(0);

  await reportOf(2)
    .getByRole('button', { name: `Suspend ${writers[2]!.username}` })
    .click();
  await confirm('Suspend user');
  await expect(
    adminPage.getByTestId('toast').filter({ hasText: `${writers[2]!.username} is suspended` }),
  ).toBeVisible();
  await adminPage.context().close();

  // The deleted comment is gone for readers; the suspended writer cannot sign in.
  const comments = await apiAs<{ comments: Array<{ id: number }> }>(
    reader,
    'GET',
    `/api/chapters/${book.chapters[0]!.id}/comments?limit=100`,
  );
  expect(comments.comments.map((c) => c.id)).not.toContain(ids[1]);
  const signIn = await fetch(`${root()}/token`, {
    method: 'POST',
    body: new URLSearchParams({ username: writers[2]!.username, password: writers[2]!.password }),
  });
  expect(signIn.status).toBe(403);
  expect((await signIn.json()).detail).toBe('This account is suspended');
});
