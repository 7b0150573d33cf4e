import type { Page } from '@playwright/test';
import {
  addChapter,
  apiAs,
  createBook,
  createUser,
  follow,
  recordRead,
  type CreatedBook,
  type User,
} from './support/api.ts';
import { app, expectAccessible, expect, logIn, test } from './support/app.ts';

/*
 * Issue 23 §3: axe on every route with real data, at desktop and phone widths, signed out and
 * signed in; any serious or critical violation fails. Each test visits its routes in one page,
 * so the suite stays quick.
 */

/** The signed-in user: an author with books of their own who also reads, follows and takes notes. */
let me: User;
/** Another author, whose published books fill the public pages. */
let writer: User;
let story: CreatedBook;
let mine: CreatedBook;
const WORD = 'Lighthouse';

test.beforeAll(async () => {
  writer = await createUser('a11y_writer', {
    first_name: 'Ada',
    last_name: 'Writer',
    biography: 'Writes about the sea.',
  });
  me = await createUser('a11y_me');
  story = await createBook(writer, {
    title: `The ${WORD} Keeper`,
    genres: ['Fantasy', 'Mystery'],
    cover: true,
    chapters: [
      { title: 'The Lamp', content: '<p>The lamp was lit at dusk.</p><p>It burned all night.</p>' },
      { title: 'The Storm' },
      { title: 'The Morning' },
    ],
  });
  await createBook(writer, {
    title: 'Without a Cover',
    genres: ['Fantasy'],
    chapters: [{ title: 'Only' }],
  });
  mine = await createBook(me, {
    title: 'My Own Draft',
    publish: false,
    chapters: [{ title: 'Draft One' }],
  });
  await addChapter(me, mine.id, { title: 'Draft Two', publish: false });
  await createBook(me, { title: 'My Published Tale', cover: true, chapters: [{ title: 'Begun' }] });
  await follow(me, writer);
  await recordRead(me, story.id, story.chapters[0]!.id);
  await apiAs(me, 'PUT', `/api/my/library/${story.id}`, { status: 'reading', owned: true });
  await apiAs(me, 'POST', '/api/my/notes', {
    book_id: story.id,
    chapter_id: story.chapters[0]!.id,
    paragraph: 0,
    quote: 'The lamp was lit',
    body: 'Why dusk?',
  });
});

const publicRoutes = () => [
  ['landing or home', '/'],
  ['home', '/home'],
  ['all books', '/books'],
  ['book', `/books/${story.id}`],
  ['reader', `/books/${story.id}/chapters/${story.chapters[0]!.id}`],
  ['author recent work', `/authors/${writer.username}`],
  ['author all books', `/authors/${writer.username}/all`],
  ['author chat', `/authors/${writer.username}/chat`],
  ['search with hits', `/books/search?q=${WORD}`],
  ['search without hits', '/books/search?q=zzqxv'],
  ['genres', '/books/genres'],
  ['genre', '/books/genres/Fantasy'],
];

const privateRoutes = () => [
  ['workspace', '/my/workspace'],
  ['book editor', `/my/workspace/books/${mine.id}`],
  ['chapter editor', `/my/workspace/books/${mine.id}/chapters/${mine.chapters[0]!.id}`],
  ['library', '/my/library'],
  ['settings', `/my/settings/${me.id}`],
  ['read history', '/my/read-history'],
  ['following', '/following'],
  ['import', '/my/import'],
];

/** Waits for the page's data: its heading, and no loading line left. */
async function settle(page: Page) {
  await expect(page.locator('[data-page-heading]').first()).toBeVisible();
  await expect(page.locator('.status-loading')).toHaveCount(0);
  // Covers and avatars, which change the colours under text, have loaded.
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
}

async function checkRoutes(page: Page, routes: string[][], label: string) {
  const failures: string[] = [];
  for (const [name, path] of routes) {
    await page.goto(app(path!));
    await settle(page);
    try {
      await expectAccessible(page, `${name} (${label})`);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  // Every route is checked before failing, so one run lists every page's problems.
  expect(failures, failures.join('\n\n')).toEqual([]);
}

for (const [width, height] of [
  [1280, 860],
  [375, 760],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('every public page, signed out', async ({ page }) => {
      test.setTimeout(300_000);
      await checkRoutes(page, publicRoutes(), `signed out, ${width} px`);
    });

    test('every page, signed in', async ({ page }) => {
      // Some forty pages, each loaded, settled and scanned: minutes on a busy 2-core machine.
      test.setTimeout(420_000);
      await logIn(page, me);
      await checkRoutes(page, [...publicRoutes(), ...privateRoutes()], `signed in, ${width} px`);
      // The reader with the notes panel holding a note.
      await page.goto(app(`/books/${story.id}/chapters/${story.chapters[0]!.id}`));
      await expect(page.getByText('Why dusk?')).toBeVisible();
      await expectAccessible(page, `reader with notes (signed in, ${width} px)`);
    });
  });
}
