import { choicesBook } from '../apps/server/test/helpers/toc-shapes.ts';
import { createUser } from './support/api.ts';
import { app, at, checkPage, expect, logIn, test } from './support/app.ts';

/* Importing a story: the preview of its chapters, the author's choices, the job, its failures. */

const root = () => `${process.env.E2E_ORIGIN}${process.env.E2E_BASE_PATH ?? ''}`;

test('importing a Markdown file: preview its chapters, then a job makes a book in the workspace', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser('importer');
  await logIn(page, writer);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Import' })
    .click();
  await expect(page).toHaveURL(at('/my/import'));
  await expect(page.getByRole('heading', { level: 1, name: 'Import a story' })).toBeVisible();
  await checkPage(page, 'import');

  const markdown = [
    '# Chapter One',
    '',
    'The first chapter, imported.',
    '',
    '# Chapter Two',
    '',
    'The second chapter, imported too.',
  ].join('\n');
  await page.getByLabel('Story file').setInputFiles({
    name: 'my-story.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from(markdown),
  });
  await page.getByRole('button', { name: 'Preview chapters' }).click();
  await expect(page.getByRole('heading', { name: 'Chapters of “my-story”' })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Title of chapter 2' })).toHaveValue(
    'Chapter Two',
  );
  await page.getByRole('button', { name: 'Create book' }).click();
  await expect(page.getByRole('progressbar', { name: /my-story\.md/ })).toBeAttached();
  const open = page.getByRole('link', { name: 'Open it in the workspace' });
  await expect(open).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Imported 2 chapters')).toBeVisible();
  await open.click();
  await expect(page).toHaveURL(/\/my\/workspace\/books\/\d+$/);
  await expect(page.getByRole('link', { name: /Chapter One/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Chapter Two/ }).first()).toBeVisible();

  // A damaged EPUB: the preview names the problem.
  await page.goto(app('/my/import'));
  await page.getByLabel('Story file').setInputFiles({
    name: 'broken.epub',
    mimeType: 'application/epub+zip',
    buffer: Buffer.from('this is not a zip file'),
  });
  await page.getByRole('button', { name: 'Preview chapters' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /zip archive/ })).toBeVisible({
    timeout: 30_000,
  });

  // A file of no known kind is refused at upload (415), with the server's explanation.
  await page.getByLabel('Story file').setInputFiles({
    name: 'picture.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
  });
  // Choosing another file took the last error away.
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Preview chapters' }).click();
  await expect(page.getByRole('alert').filter({ hasText: /Unsupported file type/ })).toBeVisible();
});

test('the preview: untick, merge and rename chapters from the keyboard, then the book has those chapters', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser('chooser');
  await logIn(page, writer);
  await page.goto(app('/my/import'));
  await page.getByLabel('Story file').setInputFiles({
    name: 'choices.epub',
    mimeType: 'application/epub+zip',
    buffer: await choicesBook('Chosen in the Browser'),
  });
  await page.getByRole('button', { name: 'Preview chapters' }).focus();
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { name: 'Chapters of “Chosen in the Browser”' });
  await expect(heading).toBeFocused();
  // Front and back matter are proposed, flagged and unticked.
  await expect(page.getByRole('checkbox', { name: 'Import chapter 1' })).not.toBeChecked();
  await expect(page.getByText('Front matter', { exact: true })).toBeVisible();
  await expect(page.getByText('Back matter', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'The book will have' })).toHaveText(
    'The book will have 4 chapters, 758 words.',
  );
  await checkPage(page, 'import-preview');

  // Tab from the heading into the table: the first control is chapter 1's checkbox.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('checkbox', { name: 'Import chapter 1' })).toBeFocused();
  // Untick "Three" (chapter 5), merge "Interlude" (3) into the next, rename "Two" (4).
  await page.getByRole('checkbox', { name: 'Import chapter 5' }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('checkbox', { name: 'Merge chapter 3 into the next chapter' }).focus();
  await page.keyboard.press('Space');
  const title = page.getByRole('textbox', { name: 'Title of chapter 4' });
  await title.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Two, Renamed');
  // A title left empty is an error named at the field, and Create takes the author there.
  const two = page.getByRole('textbox', { name: 'Title of chapter 2' });
  await two.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await expect(two).toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Create book' }).focus();
  await page.keyboard.press('Enter');
  await expect(two).toBeFocused();
  await expect(page.getByRole('alert')).toHaveText('Fix the chapters marked above first.');
  await page.keyboard.type('One');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'The book will have' })).toHaveText(
    'The book will have 2 chapters, 506 words.',
  );

  await page.getByRole('button', { name: 'Create book' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Imported 2 chapters')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Open it in the workspace' }).click();
  await expect(page).toHaveURL(/\/my\/workspace\/books\/\d+$/);
  const bookId = Number(/books\/(\d+)$/.exec(page.url())![1]);
  const chapters = (await (
    await fetch(`${root()}/api/authors/books/${bookId}/chapters`, {
      headers: { authorization: `Bearer ${writer.token}` },
    })
  ).json()) as { chapters: Array<{ id: number; title: string }> };
  expect(chapters.chapters.map((c) => c.title)).toEqual(['One', 'Two, Renamed']);
  const merged = (await (
    await fetch(`${root()}/api/chapters/${chapters.chapters[1]!.id}`, {
      headers: { authorization: `Bearer ${writer.token}` },
    })
  ).json()) as { content: string };
  expect(merged.content).toMatch(/^<h2>Interlude<\/h2><p>A breath\.<\/p>/);
});

test('an import started before a reload is still followed after it: the workspace shows its book when it ends', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const writer = await createUser('reloader');
  await logIn(page, writer);
  // The import runs longer than the reload (a small file is done in a moment otherwise): while
  // `running` holds, the job is answered unfinished and the author's books without its book.
  let running = true;
  await page.route(/\/api\/imports\/\d+$/, async (route) => {
    const answer = await route.fetch();
    const job = (await answer.json()) as Record<string, unknown>;
    const held = { ...job, status: 'running', progress: 0.5, book_id: null, finished_at: null };
    await route.fulfill({ response: answer, json: running ? held : job });
  });
  await page.route(/\/api\/my\/books$/, async (route) => {
    const answer = await route.fetch();
    const books = (await answer.json()) as Array<{ title: string }>;
    await route.fulfill({
      response: answer,
      json: running ? books.filter((book) => book.title !== 'reloaded') : books,
    });
  });

  await page.goto(app('/my/import'));
  await page.getByLabel('Story file').setInputFiles({
    name: 'reloaded.md',
    mimeType: 'text/markdown',
    buffer: Buffer.from('# One\n\nThe first.\n\n# Two\n\nThe second.'),
  });
  await page.getByRole('button', { name: 'Preview chapters' }).click();
  await page.getByRole('button', { name: 'Create book' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Importing (50%)' })).toBeVisible();
  const jobId = Number(new URL(page.url()).searchParams.get('job'));
  expect(jobId).toBeGreaterThan(0);

  // The reload, on another page: the job is asked about from there, not from the import page.
  let askedFromWorkspace = 0;
  page.on('request', (request) => {
    if (request.url().endsWith(`/api/imports/${jobId}`) && page.url().includes('/my/workspace'))
      askedFromWorkspace++;
  });
  await page.goto(app('/my/workspace'));
  await expect(page.getByRole('heading', { level: 2, name: 'My Books' })).toBeVisible();
  await expect.poll(() => askedFromWorkspace).toBeGreaterThan(0);
  const card = page.getByRole('heading', { level: 3, name: 'reloaded' });
  await expect(card).toHaveCount(0);
  running = false;
  await expect(card).toBeVisible({ timeout: 10_000 });
  // Ended: no longer kept for the next load.
  await expect
    .poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('import'))))
    .toEqual([]);
});
