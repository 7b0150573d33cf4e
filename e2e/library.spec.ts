import { createBook, createUser, recordRead, type CreatedBook, type User } from './support/api.ts';
import { app, at, checkPage, expect, logIn, test } from './support/app.ts';

/* Shelves, reading position and "Continue reading", private notes, EPUB export and feeds (import: import.spec.ts). */
let author: User;
let book: CreatedBook;
const PARAGRAPHS = 40;
const TARGET = 25;
const longChapter = Array.from(
  { length: PARAGRAPHS },
  (_, i) => `<p>Paragraph ${i} of the long road, where the travellers keep on walking.</p>`,
).join('');

const root = () => `${process.env.E2E_ORIGIN}${process.env.E2E_BASE_PATH ?? ''}`;
const apiAs = (user: User, method: string, path: string, body?: unknown) =>
  fetch(`${root()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${user.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });

test.beforeAll(async () => {
  author = await createUser('storyteller');
  book = await createBook(author, {
    chapters: [{ title: 'The Long Road', content: longChapter }, { title: 'Home Again' }],
  });
});

test('a shelved book shows in My Library with progress; Continue reading returns to the paragraph', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const reader = await createUser();
  await recordRead(reader, book.id, book.chapters[1]!.id);
  await logIn(page, reader);

  await page.goto(app(`/books/${book.id}`));
  const status = page.getByLabel('Reading status');
  await expect(status).toHaveValue('none');
  const saved = page.waitForResponse(
    (r) => r.url().endsWith(`/api/my/library/${book.id}`) && r.request().method() === 'PUT',
  );
  await status.selectOption('reading');
  await saved;
  await page.getByLabel('Owned').check();
  await expect(page.getByLabel('Owned')).toBeChecked();
  await expect(page.getByText('1 of 2 chapters read')).toBeVisible();

  // Scroll the long chapter to a paragraph; the position is saved once scrolling stops.
  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
  const target = page.locator('.reader-content > p').nth(TARGET);
  await expect(target).toBeAttached();
  const progress = page.waitForResponse(
    async (r) =>
      r.url().endsWith(`/api/my/progress/${book.id}`) &&
      r.request().method() === 'PUT' &&
      (r.request().postDataJSON() as { paragraph: number }).paragraph === TARGET,
    { timeout: 20_000 },
  );
  await target.evaluate((el) =>
    window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - 80 }),
  );
  await progress;

  await page.goto(app(`/books/${book.id}`));
  const resume = page.getByRole('link', { name: /Continue reading/ });
  await expect(resume).toBeVisible();
  await resume.click();
  await expect(page).toHaveURL(
    new RegExp(`/chapters/${book.chapters[0]!.id}\\?paragraph=${TARGET}$`),
  );
  await expect(page.getByText(`Paragraph ${TARGET} of the long road`)).toBeInViewport();
  await expect(page.getByText('Paragraph 0 of the long road')).not.toBeInViewport();

  // Read on, then reload: the reader stays where they got to (not back at the link's paragraph),
  // and so does their saved place.
  const further = TARGET + 8;
  const movedOn = page.waitForResponse(
    (r) =>
      r.url().endsWith(`/api/my/progress/${book.id}`) &&
      r.request().method() === 'PUT' &&
      (r.request().postDataJSON() as { paragraph: number }).paragraph === further,
    { timeout: 20_000 },
  );
  await page
    .locator('.reader-content > p')
    .nth(further)
    .evaluate((el) =>
      window.scrollTo({ top: el.getBoundingClientRect().top + window.scrollY - 80 }),
    );
  await movedOn;
  const savedAfterReload: number[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`/api/my/progress/${book.id}`) && request.method() === 'PUT')
      savedAfterReload.push((request.postDataJSON() as { paragraph: number }).paragraph);
  });
  await page.reload();
  await expect(page.getByText(`Paragraph ${further} of the long road`)).toBeInViewport();
  // Longer than the position saver's pause after the page settles.
  await page.waitForTimeout(3_000);
  // (The router's scroll restoration lands within a few paragraphs of where the reader was, as
  // the page's parts above the text arrive; never back at the link's paragraph.)
  expect(savedAfterReload.filter((paragraph) => paragraph <= TARGET)).toEqual([]);

  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'My Library' })
    .click();
  await expect(page).toHaveURL(at('/my/library'));
  const reading = page.getByRole('region', { name: /Reading/ }).first();
  await expect(reading.getByRole('link', { name: book.title, exact: true })).toBeVisible();
  await expect(reading.getByText('1 of 2 chapters read')).toBeVisible();
  await expect(reading.getByText(/Last read/)).toBeVisible();
  await expect(
    page
      .getByRole('region', { name: /Owned/ })
      .getByRole('link', { name: book.title, exact: true }),
  ).toBeVisible();
  await checkPage(page, 'my-library');
});

test('a note from a text selection: add, edit, delete; nobody else can see it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const reader = await createUser();
  const other = await createUser('snoop');
  await logIn(page, reader);
  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
  await expect(page.getByRole('heading', { name: 'My notes on this chapter' })).toBeVisible();

  await page
    .locator('.reader-content > p')
    .nth(3)
    .evaluate((p) => {
      const text = p.firstChild!;
      const range = document.createRange();
      range.setStart(text, 0);
      range.setEnd(text, 'Paragraph 3 of the long road'.length);
      const selection = document.getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
    });
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByLabel('Your note').fill('The road <b>never</b> ends.');
  await page.getByRole('button', { name: 'Save note' }).click();

  const note = page.locator('.note-list > li').first();
  await expect(note.locator('blockquote')).toHaveText('Paragraph 3 of the long road');
  // Plain text: the markup shows as typed, never as HTML.
  await expect(note.getByText('The road <b>never</b> ends.')).toBeVisible();
  const id = Number(await note.getAttribute('data-note-id'));
  await checkPage(page, 'reader-notes');

  const mine = (await (await apiAs(reader, 'GET', `/api/my/notes?book_id=${book.id}`)).json()) as {
    notes: Array<{ id: number; paragraph: number; quote: string }>;
  };
  expect(mine.notes).toEqual([
    expect.objectContaining({ id, paragraph: 3, quote: 'Paragraph 3 of the long road' }),
  ]);
  // Another reader can neither list, change nor delete it.
  const theirs = (await (await apiAs(other, 'GET', `/api/my/notes?book_id=${book.id}`)).json()) as {
    notes: unknown[];
  };
  expect(theirs.notes).toEqual([]);
  expect((await apiAs(other, 'PUT', `/api/my/notes/${id}`, { body: 'mine now' })).status).toBe(404);
  expect((await apiAs(other, 'DELETE', `/api/my/notes/${id}`, {})).status).toBe(404);

  await note.getByRole('button', { name: 'Edit' }).click();
  await note.getByLabel('Edit note').fill('Changed my mind.');
  await note.getByRole('button', { name: 'Save' }).click();
  await expect(note.getByText('Changed my mind.')).toBeVisible();

  // My Library lists the note too, with where it belongs.
  await page.goto(app('/my/library'));
  const listed = page.getByRole('region', { name: 'My notes' }).locator('.note-list > li');
  await expect(listed.getByText('Changed my mind.')).toBeVisible();
  await expect(listed.getByRole('link', { name: 'The Long Road' })).toHaveAttribute(
    'href',
    app(`/books/${book.id}/chapters/${book.chapters[0]!.id}?paragraph=3`),
  );

  // The book page lists the book's notes and takes a note on the whole book.
  await page.goto(app(`/books/${book.id}`));
  const bookNotes = page.getByRole('region', { name: 'My notes on this book' });
  await expect(bookNotes.getByText('Changed my mind.')).toBeVisible();
  await bookNotes.getByRole('button', { name: 'Add a note on this book' }).click();
  await bookNotes.getByLabel('Your note').fill('A book to reread.');
  await bookNotes.getByRole('button', { name: 'Save note' }).click();
  await expect(bookNotes.getByText('A book to reread.')).toBeVisible();
  const all = (await (await apiAs(reader, 'GET', `/api/my/notes?book_id=${book.id}`)).json()) as {
    notes: Array<{ body: string; chapter_id: number | null }>;
  };
  expect(all.notes).toContainEqual(
    expect.objectContaining({ body: 'A book to reread.', chapter_id: null }),
  );

  await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
  await page.locator('.note-list > li').first().getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('No notes here yet.')).toBeVisible();
  expect((await apiAs(reader, 'PUT', `/api/my/notes/${id}`, { body: 'gone?' })).status).toBe(404);
});

test('the EPUB download answers an EPUB; book and author pages link their feeds; the private feed', async ({
  page,
}) => {
  const reader = await createUser();
  await logIn(page, reader);
  await page.goto(app(`/books/${book.id}`));
  const download = page.getByRole('link', { name: 'Download EPUB' });
  const href = await download.getAttribute('href');
  expect(href).toBe(app(`/api/books/${book.id}/export.epub`));
  const epub = await page.request.get(href!);
  expect(epub.status()).toBe(200);
  expect(epub.headers()['content-type']).toContain('application/epub+zip');
  await expect(
    page.locator('head link[rel="alternate"][type="application/atom+xml"]'),
  ).toHaveAttribute('href', app(`/api/books/${book.id}/feed.atom`));
  expect((await page.request.get(app(`/api/books/${book.id}/feed.atom`))).status()).toBe(200);

  await page.goto(app(`/authors/${author.username}`));
  await expect(
    page.locator('head link[rel="alternate"][type="application/atom+xml"]'),
  ).toHaveAttribute('href', app(`/api/authors/${author.username}/feed.atom`));

  await page.goto(app('/my/library'));
  await page.getByRole('button', { name: 'Create private feed address' }).click();
  const address = page.getByLabel(/Your private feed address/);
  await expect(address).toHaveValue(/feed/);
  const feedUrl = await address.inputValue();
  expect((await page.request.get(feedUrl)).status()).toBe(200);
  await page.getByRole('button', { name: 'Revoke address' }).click();
  await expect(page.getByText('No private feed address is active.')).toBeVisible();
  expect((await page.request.get(feedUrl)).status()).toBe(404);
});

test("a refused EPUB export is told in the server's words, and the next try downloads it", async ({
  page,
}) => {
  const changed = 'The book changed while its EPUB was being made; please try again';
  const exportUrl = `**/api/books/${book.id}/export.epub`;
  // The server says so when the book keeps changing while its file is made: answered here.
  await page.route(exportUrl, (route) =>
    route.fulfill({
      status: 503,
      headers: { 'retry-after': '5' },
      json: { detail: changed, code: 'unavailable' },
    }),
  );
  await page.goto(app(`/books/${book.id}`));
  const download = page.getByRole('link', { name: 'Download EPUB' });
  await download.click();
  await expect(page.getByTestId('toast').filter({ hasText: changed })).toBeVisible();
  await expect(download).not.toHaveAttribute('aria-disabled', 'true');

  await page.unroute(exportUrl);
  const saved = page.waitForEvent('download');
  await download.click();
  expect((await saved).suggestedFilename()).toBe(`${book.title}.epub`);
});
