import type { Page } from '@playwright/test';
import {
  apiAs,
  createBook,
  createUser,
  unique,
  type CreatedBook,
  type User,
} from './support/api.ts';
import { app, checkPage, expect, signedInPage, test } from './support/app.ts';

/*
 * Issue 21 in the browser: tags, warnings and filters on lists; saved exclusions applied on home
 * and in search, with the hidden line and "show anyway"; a search passage that opens its chapter
 * at its paragraph; a script in chapter text, shown as a passage, runs nothing. Axe on each page.
 * Names are unique: every spec file shares one database.
 */

let writer: User;
let reader: User;
/** Both books carry it; only the dark one has the dark tag and a warning. */
const seaTag = unique('Seafaring');
const darkTag = unique('Grimdark');
/** A word no other book has, in one piece (no '_'), so search marks it whole. */
const word = (prefix: string) => unique(prefix).replace('_', '');
/** In both books' summaries: a search that finds both. */
const bothWord = word('brinewake');
/** In one paragraph of the calm book's second chapter, far down the page. */
const deepWord = word('lanternfish');
/** In a chapter's text next to markup written as text: the passage must show it as text. */
const xssWord = word('saltmarsh');
const DEEP_PARAGRAPH = 12;
let calm: CreatedBook;
let dark: CreatedBook;

const filler = (i: number) =>
  `<p>Paragraph ${i}. ${'The tide came in and went out again over the long grey flats. '.repeat(8)}</p>`;

test.beforeAll(async () => {
  writer = await createUser('disco_writer', { first_name: 'Wren', last_name: 'Tide' });
  reader = await createUser('disco_reader');
  calm = await createBook(writer, {
    title: unique('The Calm Harbour'),
    summary: `A gentle ${bothWord} tale.`,
    cover: true,
    chapters: [
      { title: 'Arrival' },
      {
        title: 'The Deep',
        content:
          Array.from({ length: DEEP_PARAGRAPH }, (_, i) => filler(i)).join('') +
          `<p>Below the pier the ${deepWord} glowed, small and steady.</p>` +
          filler(DEEP_PARAGRAPH + 1),
      },
    ],
  });
  dark = await createBook(writer, {
    title: unique('The Drowned Fleet'),
    summary: `A grim ${bothWord} war.`,
    cover: true,
    chapters: [
      {
        title: 'Wreckage',
        content:
          `<p>The ${xssWord} said: &lt;script&gt;alert('xss-snippet')&lt;/script&gt; and ` +
          `&lt;img src=x onerror="alert('xss-img')"&gt; in plain words.</p>` +
          `<img src=x onerror="alert('xss-raw')"><p>Nothing else.</p>`,
      },
    ],
  });
  await apiAs(writer, 'PUT', `/api/books/${calm.id}`, {
    tags: [seaTag],
    rating: 'general',
    status: 'completed',
  });
  await apiAs(writer, 'PUT', `/api/books/${dark.id}`, {
    tags: [seaTag, darkTag],
    warnings: ['graphic-violence'],
    rating: 'mature',
    status: 'ongoing',
  });
});

const cards = (page: Page) => page.locator('.book-card');
const card = (page: Page, book: CreatedBook) => cards(page).filter({ hasText: book.title });

/** Search is indexed a moment after a write: asks again until `book` is among the results. */
async function searchUntilFound(page: Page, q: string, book: CreatedBook) {
  await expect(async () => {
    await page.goto(app(`/books/search?${new URLSearchParams({ q })}`));
    await expect(card(page, book)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test('a tag chip lists the books with it; the filters exclude a warning and the back button undoes it', async ({
  page,
}) => {
  await page.goto(app(`/books/${dark.id}`));
  await expect(page.getByText('Warnings: Graphic violence')).toBeVisible();
  await expect(page.getByText('Rated Mature')).toBeVisible();
  await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: seaTag }).click();

  await expect(page).toHaveURL(new RegExp(`/books\\?tags=${seaTag}$`));
  await expect(cards(page)).toHaveCount(2);
  await expect(page.getByText('Filters (1 set)')).toBeVisible();
  await checkPage(page, 'discovery-tag-list');
  await page.setViewportSize({ width: 375, height: 812 });
  await checkPage(page, 'discovery-tag-list-phone');
  await page.setViewportSize({ width: 1280, height: 860 });

  await page.getByRole('checkbox', { name: 'Graphic violence' }).check();
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page).toHaveURL(/exclude_warnings=graphic-violence/);
  await expect(cards(page)).toHaveCount(1);
  await expect(card(page, calm)).toBeVisible();
  await expect(card(page, calm).getByText('Completed', { exact: true })).toBeVisible();

  // The address is the state: a reload keeps the list, the back button returns to the tag alone.
  await page.reload();
  await expect(cards(page)).toHaveCount(1);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/books\\?tags=${seaTag}$`));
  await expect(cards(page)).toHaveCount(2);
  await expect(page.getByRole('checkbox', { name: 'Graphic violence' })).not.toBeChecked();
});

test('the filter panel works from the keyboard: a tag typed, a warning ticked, applied with Enter', async ({
  page,
}) => {
  await page.goto(app('/books'));
  const summary = page.getByText('Filters', { exact: true });
  await summary.focus();
  await page.keyboard.press('Enter');
  const include = page.getByRole('combobox', { name: 'With all these tags' });
  await page.keyboard.press('Tab');
  await expect(include).toBeFocused();
  await page.keyboard.type(`  ${darkTag}  `);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('list', { name: 'With all these tags' })).toHaveText(
    new RegExp(darkTag),
  );
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`tags=${darkTag}`));
  await expect(cards(page)).toHaveCount(1);
  await expect(card(page, dark)).toBeVisible();
});

test('saved exclusions apply on home and in search, with the hidden line and show anyway', async ({
  browser,
}) => {
  const page = await signedInPage(browser, reader);
  await page.goto(app(`/my/settings/${reader.id}`));
  const section = page.getByRole('region', { name: 'My filters' });
  await section.getByRole('combobox', { name: 'Hide books with these tags' }).fill(darkTag);
  await section.getByRole('combobox', { name: 'Hide books with these tags' }).press('Enter');
  await section.getByRole('button', { name: 'Save my filters' }).click();
  await expect(section.getByRole('status')).toHaveText(
    'Saved your filters. Lists and search now leave these books out.',
  );
  await checkPage(page, 'discovery-my-filters');

  // Home: the excluded book is not among the recent ones, and the line says some were hidden.
  await page.goto(app('/home'));
  const recent = page.getByRole('list', { name: 'Recent books' });
  await expect(recent.getByText(calm.title)).toBeVisible();
  await expect(recent.getByText(dark.title)).toHaveCount(0);
  const line = page.getByText(/Filtered: \d+ books? hidden/).first();
  await expect(line).toBeVisible();
  await checkPage(page, 'discovery-home-filtered');
  await line.getByRole('button', { name: 'Show anyway' }).click();
  await expect(page).toHaveURL(/filters=off/);
  await expect(recent.getByText(dark.title)).toBeVisible();
  await expect(
    page.getByText('Your filters are off on this page: everything is shown.'),
  ).toBeVisible();

  // Search: the same.
  await searchUntilFound(page, bothWord, calm);
  await expect(card(page, dark)).toHaveCount(0);
  const hidden = page.getByText(/Filtered: 1 book hidden/);
  await expect(hidden).toBeVisible();
  await checkPage(page, 'discovery-search-filtered');
  await hidden.getByRole('button', { name: 'Show anyway' }).click();
  await expect(card(page, dark)).toBeVisible();
  await expect(cards(page)).toHaveCount(2);
  await page.getByRole('button', { name: 'Apply my filters' }).click();
  await expect(card(page, dark)).toHaveCount(0);
  await page.context().close();
});

test('a search passage opens its chapter at its paragraph, which is marked for a moment', async ({
  page,
}) => {
  await searchUntilFound(page, deepWord, calm);
  const hit = card(page, calm);
  await expect(hit.locator('.search-snippet mark')).toHaveText(new RegExp(deepWord, 'i'));
  await checkPage(page, 'discovery-search-passage');
  await hit.getByRole('link', { name: 'Read the passage in “The Deep”' }).click();

  await expect(page).toHaveURL(
    new RegExp(`chapters/${calm.chapters[1]!.id}\\?paragraph=${DEEP_PARAGRAPH}$`),
  );
  const paragraph = page.locator('.reader-content > *').nth(DEEP_PARAGRAPH);
  await expect(paragraph).toContainText(deepWord);
  await expect(paragraph).toHaveAttribute('data-located', /shown|fading/);
  await expect(paragraph).toBeInViewport();
  await expect(paragraph).not.toHaveAttribute('data-located', { timeout: 5_000 });
});

test('markup in chapter text, shown as a search passage, is text and runs nothing', async ({
  page,
}) => {
  const fired: string[] = [];
  page.on('dialog', (dialog) => {
    fired.push(dialog.message());
    void dialog.dismiss();
  });
  await searchUntilFound(page, xssWord, dark);
  const snippet = card(page, dark).locator('.search-snippet');
  await expect(snippet).toContainText(`<script>alert('xss-snippet')</script>`);
  await expect(snippet.locator('script, img, [onerror]')).toHaveCount(0);
  await expect(snippet.locator('mark')).toHaveText(new RegExp(xssWord, 'i'));
  await page.waitForTimeout(300);
  expect(fired).toEqual([]);
  expect(await page.evaluate(() => document.querySelectorAll('.search-snippet img').length)).toBe(
    0,
  );
});

test('the book details editor: tags with suggestions, duplicates refused, warnings, rating and status', async ({
  browser,
}) => {
  const page = await signedInPage(browser, writer);
  const book = await createBook(writer, { title: unique('Fresh Draft'), chapters: [] });
  await page.goto(app(`/my/workspace/books/${book.id}`));
  const tags = page.getByRole('combobox', { name: 'Tags' });
  await tags.fill(seaTag.slice(0, -1));
  const option = page.getByRole('option', { name: new RegExp(seaTag) });
  await expect(option).toBeVisible();
  await tags.press('ArrowDown');
  await tags.press('Enter');
  await tags.fill(`  Slow    burn `);
  await tags.press('Enter');
  await tags.fill(seaTag.toUpperCase());
  await tags.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(`“${seaTag}” is already in the list.`);
  await expect(page.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText([
    `${seaTag}×`,
    'Slow burn×',
  ]);
  await page.getByRole('checkbox', { name: 'Major character death' }).check();
  await page.getByLabel('Rating').selectOption('teen');
  await page.getByLabel('Status').selectOption('hiatus');
  await checkPage(page, 'discovery-book-details');
  await page.getByRole('button', { name: 'Save Details' }).click();
  await expect(page.getByText('Updated Book Details')).toBeVisible();
  const saved = await apiAs<{ tags: string[]; warnings: string[]; rating: string; status: string }>(
    writer,
    'GET',
    `/api/books/${book.id}`,
  );
  expect(saved).toMatchObject({
    tags: [seaTag, 'Slow burn'],
    warnings: ['major-character-death'],
    rating: 'teen',
    status: 'hiatus',
  });
  await page.context().close();
});
