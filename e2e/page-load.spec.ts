import type { Browser, Page } from '@playwright/test';
import { createBook, createUser, type CreatedBook } from './support/api.ts';
import { app, expect, logIn, test } from './support/app.ts';

/*
 * A first visit to the reader (decision 0016): the page's HTML starts the chapter's data and chunks,
 * the app takes those answers instead of asking again, a visitor's page does not ask /token, and
 * nothing on screen moves while the page loads.
 */
let book: CreatedBook;

const longChapter = Array.from(
  { length: 40 },
  (_, i) =>
    `<p>Paragraph ${i + 1}: the lamps were lit one by one along the quay, and the tide came in.</p>`,
).join('');

test.beforeAll(async () => {
  const author = await createUser('preloader');
  book = await createBook(author, {
    // Longer than a phone's reader bar: the back link keeps to one line.
    title: 'A Rather Long Title For A Book About Lamps, Tides and the Harbour at Night',
    chapters: [
      { title: 'Dusk', content: longChapter },
      { title: 'Night', content: longChapter },
    ],
  });
});

const pathOf = (url: string) => new URL(url).pathname;

/** Every request the page makes to the server's API and token endpoints, by path. */
function recordApiRequests(page: Page) {
  const paths: string[] = [];
  page.on('request', (request) => {
    const p = pathOf(request.url());
    if (p.startsWith(app('/api/')) || p === app('/token')) paths.push(p);
  });
  return paths;
}

/** Sums the page's layout shifts from its very start (buffered), as CLS counts them. */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { layoutShift: number; shifted: string[] };
    w.layoutShift = 0;
    w.shifted = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        w.layoutShift += entry.value;
        for (const s of entry.sources ?? [])
          w.shifted.push((s.node as Element | undefined)?.className || String(s.node?.nodeName));
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return async () => {
    // Shifts are reported after the frame that made them.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 300))));
    return page.evaluate(() => {
      const w = window as unknown as { layoutShift: number; shifted: string[] };
      return { total: w.layoutShift, shifted: w.shifted };
    });
  };
}

/** The API addresses a page's HTML preloads, and those the app fetched again itself. */
const preloadsOf = (page: Page) =>
  page.evaluate(() => {
    const preloaded = [...document.querySelectorAll('link[rel="preload"][as="fetch"]')].map(
      (l) => new URL((l as HTMLLinkElement).href).pathname,
    );
    const fetchedAgain = performance
      .getEntriesByType('resource')
      .filter((e) => (e as PerformanceResourceTiming).initiatorType === 'fetch')
      .map((e) => new URL(e.name).pathname)
      .filter((p) => preloaded.includes(p));
    return { preloaded, fetchedAgain };
  });

async function visitAsVisitor(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const shifts = await watchLayoutShifts(page);
  const requests = recordApiRequests(page);
  const chapter = book.chapters[0]!;
  await page.goto(app(`/books/${book.id}/chapters/${chapter.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Dusk' })).toBeVisible();
  await expect(page.getByText('Paragraph 40:')).toBeAttached();
  await expect(page.getByRole('link', { name: new RegExp(book.title) })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Next Chapter' })).toBeVisible();
  return { page, context, shifts, requests, chapter };
}

test('a visitor’s first visit to a chapter uses the preloaded data and asks nothing twice', async ({
  browser,
}) => {
  const { page, context, requests, chapter } = await visitAsVisitor(browser, {
    width: 412,
    height: 823,
  });
  const expected = [
    app(`/api/chapters/${chapter.id}`),
    app(`/api/books/${book.id}`),
    app(`/api/books/${book.id}/chapters`),
  ];
  const { preloaded, fetchedAgain } = await preloadsOf(page);
  expect(preloaded.sort()).toEqual([...expected].sort());
  expect(fetchedAgain).toEqual([]);
  // One request each (the preload's), and no GET /token: the page said there is no session.
  // The comments and their counts (issue 19), and the visitor's view for the author's
  // statistics (issue 20), are asked apart, after the text, once each.
  const afterText = [
    app(`/api/chapters/${chapter.id}/comment-counts`),
    app(`/api/chapters/${chapter.id}/comments`),
    app(`/api/chapters/${chapter.id}/view`),
  ].sort();
  expect(requests.filter((p) => !afterText.includes(p)).sort()).toEqual([...expected].sort());
  await expect.poll(() => requests.filter((p) => afterText.includes(p)).sort()).toEqual(afterText);
  const chunks = await page.evaluate(() =>
    [...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')),
  );
  expect(chunks.some((href) => href?.startsWith(app('/assets/reader-')))).toBe(true);
  await expect(page.getByRole('link', { name: 'Log In' })).toBeVisible();

  // Moving on inside the app still loads the next chapter (through the route's loader).
  await page.getByRole('link', { name: 'Next Chapter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Night' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Night' })).toBeFocused();
  expect(requests.filter((p) => p === app(`/api/chapters/${book.chapters[1]!.id}`))).toHaveLength(
    1,
  );
  await context.close();
});

for (const viewport of [
  { width: 412, height: 823 },
  { width: 1280, height: 860 },
]) {
  test(`nothing moves while the reader loads (${viewport.width}×${viewport.height})`, async ({
    browser,
  }) => {
    const { context, shifts } = await visitAsVisitor(browser, viewport);
    expect(await shifts()).toEqual({ total: 0, shifted: [] });
    await context.close();
  });
}

test('a signed-in reader’s page asks for the session and still uses the preloaded chapter', async ({
  page,
}) => {
  const reader = await createUser();
  await logIn(page, reader);
  const requests = recordApiRequests(page);
  const chapter = book.chapters[1]!;
  await page.goto(app(`/books/${book.id}/chapters/${chapter.id}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Night' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log Out' })).toBeVisible();
  expect(await page.locator('meta[name="inkwell-session"]').count()).toBe(0);
  expect(requests.filter((p) => p === app('/token'))).toHaveLength(1);
  expect(requests.filter((p) => p === app(`/api/chapters/${chapter.id}`))).toHaveLength(1);
  expect((await preloadsOf(page)).fetchedAgain).toEqual([]);
  // A signed-in reader counts through their history and progress, never through a view.
  expect(requests.filter((p) => p.endsWith('/view'))).toEqual([]);
});

test('a book page uses its preloaded data too', async ({ page }) => {
  const requests = recordApiRequests(page);
  await page.goto(app(`/books/${book.id}`));
  await expect(page.getByRole('link', { name: 'Dusk' })).toBeVisible();
  const { preloaded, fetchedAgain } = await preloadsOf(page);
  expect(preloaded.sort()).toEqual(
    [
      app(`/api/books/${book.id}`),
      app(`/api/books/${book.id}/chapters`),
      app(`/api/books/${book.id}/announcements`),
    ].sort(),
  );
  expect(fetchedAgain).toEqual([]);
  for (const p of preloaded)
    expect(
      requests.filter((r) => r === p),
      p,
    ).toHaveLength(1);
});
