import { createBook, createUser, unique, type CreatedBook, type User } from './support/api.ts';
import { app, at, checkPage, expect, test } from './support/app.ts';

/*
 * Browsing as a visitor: landing, all books with infinite scroll, search, genres, a book, the reader.
 * The data is made once for the file through the API.
 */
let author: User;
let saga: CreatedBook;
let empty: CreatedBook;
const word = unique('zephyrine');
/** In every filler book's title: a search with more than one page of results. */
const fillerWord = unique('quillon');

test.beforeAll(async () => {
  author = await createUser('writer', {
    first_name: 'Ada',
    last_name: 'Quill',
    biography: 'Writes about lighthouses.',
  });
  saga = await createBook(author, {
    title: `The ${word} Saga`,
    summary: 'Three nights at sea.',
    genres: ['Fantasy', 'Mystery'],
    cover: true,
    chapters: [
      {
        title: 'Night One',
        content:
          '<p>The lamp turned.</p><script>window.hacked = true</script><img src=x onerror="window.hacked = true">',
      },
      { title: 'Night Two' },
      { title: 'Night Three' },
    ],
  });
  empty = await createBook(author, { title: unique('Empty Book'), chapters: [] });
  // Enough books for more than two pages of ten.
  for (let i = 0; i < 21; i++)
    await createBook(author, { title: `${fillerWord} ${i}`, chapters: [{ title: 'Only' }] });
});

test('the landing page for visitors', async ({ page }) => {
  await page.goto(app('/'));
  await expect(page.getByRole('link', { name: 'Browse books' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign up' })).toHaveAttribute(
    'href',
    app('/accounts/signup'),
  );
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
    'href',
    app('/accounts/login'),
  );
  await expect(page.locator('.feature-tile')).toHaveCount(6);
  await checkPage(page, 'landing');
  await page.getByRole('link', { name: 'Browse books' }).click();
  await expect(page).toHaveURL(at('/books'));
});

test('all books: infinite scroll loads pages of 10 and stops at the end', async ({ page }) => {
  await page.goto(app('/books'));
  await expect(page.getByRole('heading', { level: 1, name: 'All Books' })).toBeVisible();
  const cards = page.locator('.book-card');
  await expect(cards).toHaveCount(10);
  await checkPage(page, 'books');
  const total = await (
    await fetch(`${process.env.E2E_ORIGIN}${app('/api/books?limit=100')}`)
  ).json();
  for (let shown = 10; shown < total.length; shown += 10) {
    await cards.last().scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(Math.min(shown + 10, total.length));
  }
  await expect(page.getByText('You have reached the end of the list.')).toBeVisible();
  const card = page.locator('.book-card', { hasText: saga.title });
  await expect(card.getByRole('link', { name: 'Ada Quill' })).toHaveAttribute(
    'href',
    app(`/authors/${author.username}`),
  );
  await expect(card.getByRole('link', { name: `Read Now: ${saga.title}` })).toHaveAttribute(
    'href',
    app(`/books/${saga.id}`),
  );
});

test('search from the header: count, cards with genre tags, and the no-match sentence', async ({
  page,
}) => {
  await page.goto(app('/books'));
  const search = page.getByRole('searchbox', { name: 'Search for books' });
  await search.fill(word);
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${app('/books/search')}\\?q=${word}$`));
  await expect(page.getByText('1 result', { exact: true })).toBeVisible();
  const card = page.locator('.book-card');
  await expect(card.getByRole('link', { name: saga.title })).toBeVisible();
  await expect(card.getByRole('link', { name: 'Fantasy' })).toHaveAttribute(
    'href',
    app('/books/genres/Fantasy'),
  );
  await checkPage(page, 'search');

  await search.fill('qwxzzy nothing matches');
  await search.press('Enter');
  await expect(
    page.getByText('Your search — qwxzzy nothing matches — did not match any books.'),
  ).toBeVisible();
});

test('search takes whatever is pasted: controls dropped, cut to 500, never an error', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/api/books/search') && !res.ok()) refused.push(res.url());
  });
  await page.goto(app('/books'));
  const search = page.getByRole('searchbox', { name: 'Search for books' });
  // A paste: the word, a tab, a NUL and a bell, then far more text than a query holds.
  await search.focus();
  await page.evaluate(
    (text) => {
      const box = document.querySelector<HTMLInputElement>('#site-search')!;
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
      set.call(box, text);
      box.dispatchEvent(new Event('input', { bubbles: true }));
    },
    `${word}\t\u0000\u0007 ${'x'.repeat(900)}`,
  );
  await search.press('Enter');
  await expect(page).toHaveURL(/\/books\/search\?q=/);
  await expect(page.getByText(/did not match any books|result/).first()).toBeVisible();
  await expect(page.locator('.status-error, [role="alert"]')).toHaveCount(0);
  // The same text straight in the address bar, NUL included, answers a list too.
  await page.goto(app(`/books/search?q=${word}%00%01${'y'.repeat(700)}`));
  await expect(page.getByText(/did not match any books|result/).first()).toBeVisible();
  await page.goto(app(`/books/search?q=${word}%00`));
  await expect(page.getByText('1 result', { exact: true })).toBeVisible();
  expect(refused).toEqual([]);
});

test('search results come a page of 20 at a time, the count saying when more follow', async ({
  page,
}) => {
  await page.goto(app(`/books/search?q=${fillerWord}`));
  const cards = page.locator('.book-card');
  await expect(cards).toHaveCount(20);
  await expect(page.getByText('20+ results', { exact: true })).toBeVisible();
  // Pressed where it is, not scrolled to: scrolling to it brings the last card into view, which
  // loads the next page by itself (InfiniteList) and takes the button away mid-click.
  await page
    .getByRole('button', { name: 'Load more results' })
    .evaluate((button: HTMLButtonElement) => button.click());
  await expect(cards).toHaveCount(21);
  await expect(page.getByText('21 results', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load more results' })).toHaveCount(0);
});

test('genres: 23 coloured boxes, and a genre page with its books', async ({ page }) => {
  await page.goto(app('/books/genres'));
  await expect(page.getByRole('heading', { level: 1, name: 'Genres' })).toBeVisible();
  const boxes = page.locator('.genre-box');
  await expect(boxes).toHaveCount(23);
  const colors = await boxes.evaluateAll((els) =>
    els.map((el) => getComputedStyle(el).backgroundColor),
  );
  expect(new Set(colors).size).toBe(23);
  await checkPage(page, 'genres');
  await page.getByRole('link', { name: 'Mystery', exact: true }).click();
  await expect(page).toHaveURL(at('/books/genres/Mystery'));
  await expect(page.getByRole('heading', { level: 1, name: 'Mystery' })).toBeVisible();
  await page.getByRole('link', { name: saga.title }).click();
  await expect(page).toHaveURL(at(`/books/${saga.id}`));
});

test("a book page lists its chapters; an empty one says 'No Chapters.'", async ({ page }) => {
  await page.goto(app(`/books/${saga.id}`));
  await expect(page.getByRole('heading', { level: 1, name: saga.title })).toBeVisible();
  await expect(page.locator('.chapter-list li')).toHaveCount(3);
  await expect(page.getByRole('img', { name: `Cover of ${saga.title}` })).toBeVisible();
  await checkPage(page, 'book');
  await page.goto(app(`/books/${empty.id}`));
  await expect(page.getByText('No Chapters.')).toBeVisible();
  await page.goto(app('/books/999999'));
  await expect(page.getByRole('heading', { level: 1, name: 'Book not found' })).toBeVisible();
});

test('a book has one address: other spellings of its id show Book not found', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/api/books/')) asked.push(new URL(req.url()).pathname);
  });
  for (const spelling of [
    `0x${saga.id.toString(16)}`,
    `0${saga.id}`,
    `${saga.id}.0`,
    `+${saga.id}`,
  ]) {
    await page.goto(app(`/books/${spelling}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Book not found' })).toBeVisible();
    await page.goto(app(`/books/${spelling}/chapters/1`));
    await expect(page.getByRole('heading', { level: 1, name: saga.title })).toHaveCount(0);
  }
  // Neither the page nor its preloads asked for the book under its real address.
  expect(asked.filter((p) => p.endsWith(`/api/books/${saga.id}`))).toEqual([]);
});

test('the reader: sanitized content, Previous and Next, To the Top', async ({ page }) => {
  await page.goto(app(`/books/${saga.id}/chapters/${saga.chapters[0]!.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Night One' })).toBeVisible();
  await expect(page.getByText('The lamp turned.')).toBeVisible();
  expect(await page.evaluate(() => (window as { hacked?: boolean }).hacked)).toBeUndefined();
  await expect(page.locator('.reader-content script, .reader-content [onerror]')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Previous Chapter' })).toHaveCount(0);
  await checkPage(page, 'reader');

  await page.getByRole('link', { name: 'Next Chapter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Night Two' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Night Two' })).toBeFocused();
  await page.getByRole('link', { name: 'Next Chapter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Night Three' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Next Chapter' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Previous Chapter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Night Two' })).toBeVisible();

  await page.getByRole('link', { name: 'To the Top' }).click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await page.getByRole('link', { name: saga.title }).first().click();
  await expect(page).toHaveURL(at(`/books/${saga.id}`));
});

test('reader settings for a visitor are kept on the device', async ({ page }) => {
  await page.goto(app(`/books/${saga.id}/chapters/${saga.chapters[0]!.id}`));
  await page.getByRole('button', { name: 'Reading settings' }).click();
  await page.getByRole('radio', { name: 'Sepia' }).check();
  await page.getByRole('radio', { name: 'Wide' }).check();
  await page.getByRole('button', { name: 'Larger text' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'sepia');
  const size = await page
    .locator('.reader-content')
    .evaluate((el) => getComputedStyle(el).fontSize);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'sepia');
  await expect(page.locator('html')).toHaveAttribute('data-line-width', 'wide');
  await expect(page.locator('.reader-content')).toHaveCSS('font-size', size);
  await checkPage(page, 'reader-sepia');
});
