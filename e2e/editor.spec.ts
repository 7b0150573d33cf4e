import type { Page } from '@playwright/test';
import { createBook, createUser, type User } from './support/api.ts';
import { app, expect, logIn, test } from './support/app.ts';
import {
  checkWorkspacePage,
  chapterDrafts,
  editorText,
  expectServerContent,
  serverChapter,
  toast,
  typeChapter,
} from './support/workspace.ts';

async function openChapter(
  page: Page,
  author: User,
  chapters: Array<{ title: string; content?: string; publish?: boolean }>,
) {
  const book = await createBook(author, { chapters });
  const chapter = book.chapters[0]!;
  await logIn(page, author);
  await page.goto(app(`/my/workspace/books/${book.id}/chapters/${chapter.id}`));
  await expect(editorText(page)).toBeVisible();
  return { book, chapter };
}

/** The PUTs of chapter content, with the time each left the browser. */
function recordSaves(page: Page) {
  const saves: Array<{ at: number; body: { content?: string; version?: number } }> = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && /\/api\/books\/\d+\/chapters\/\d+$/.test(r.url())) {
      const body = JSON.parse(r.postData() ?? '{}');
      if (body.content !== undefined) saves.push({ at: Date.now(), body });
    }
  });
  return saves;
}

test.describe('chapter editor', () => {
  test('autosave lands 5 s after the last keystroke; manual save; toolbar; live word count', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter } = await openChapter(page, author, [
      { title: 'Opening', content: '<p>Old words.</p>', publish: false },
    ]);
    await expect(page.getByRole('heading', { level: 1, name: 'Opening' })).toBeVisible();
    await expect(page.getByText('Autosaved on:')).toBeVisible();
    await expect(page.getByText('2 words · 1 min read')).toBeVisible();
    await checkWorkspacePage(page, 'editor');

    const saves = recordSaves(page);
    await typeChapter(page, 'The night was lon');
    // The last keystroke happens after this instant, and the save must leave 5 s after it.
    const beforeLastKey = Date.now();
    await page.keyboard.press('g');
    await expect(page.getByText('Unsaved changes')).toBeVisible();
    await expect(page.getByText('4 words · 1 min read')).toBeVisible();
    await expect(toast(page, 'Autosaved Chapter')).toBeVisible({ timeout: 9_000 });
    expect(saves).toHaveLength(1);
    expect(saves[0]!.at - beforeLastKey).toBeGreaterThanOrEqual(4_990);
    expect(saves[0]!.at - beforeLastKey).toBeLessThan(7_000);
    expect(saves[0]!.body.version).toBe(1);
    await expectServerContent(author, chapter.id, 'The night was long');
    await expect(page.getByText('All changes saved')).toBeVisible();

    // Toolbar: bold, then a heading; the save button (and Ctrl+S) saves at once.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bold' }).click();
    await expect(page.getByRole('button', { name: 'Bold' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.keyboard.type('and dark');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Heading 3' }).click();
    await page.keyboard.type('Part Two');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expect(toast(page, 'Saved "Opening"')).toBeVisible();
    await expectServerContent(author, chapter.id, '<strong>and dark</strong>');
    await expectServerContent(author, chapter.id, '<h3>Part Two</h3>');

    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Bullet list' }).click();
    await page.getByRole('button', { name: 'Italic' }).click();
    await page.keyboard.type('listed');
    await page.keyboard.press('ControlOrMeta+s');
    await expectServerContent(author, chapter.id, '<ul><li><p><em>listed</em></p></li></ul>');

    // Undo: a pause of more than 500 ms starts a new undo step.
    await page.keyboard.type(' first');
    await page.waitForTimeout(700);
    await page.keyboard.type(' second');
    await expect(editorText(page).locator('li')).toHaveText('listed first second');
    await page.keyboard.press('ControlOrMeta+z');
    await expect(editorText(page).locator('li')).toHaveText('listed first');
    await page.keyboard.press('ControlOrMeta+Shift+z');
    await expect(editorText(page).locator('li')).toHaveText('listed first second');
  });

  test('the editor code loads only on the editor route', async ({ page }) => {
    const author = await createUser('author');
    const book = await createBook(author, { chapters: [{ title: 'Read me' }] });
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await logIn(page, author);
    await page.goto(app(`/books/${book.id}/chapters/${book.chapters[0]!.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Read me' })).toBeVisible();
    await page.goto(app(`/my/workspace/books/${book.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Book Details' })).toBeVisible();
    expect(scripts.filter((s) => s.includes('ChapterEditorPage'))).toEqual([]);
    await page.getByRole('link', { name: 'Read me' }).click();
    await expect(editorText(page)).toBeVisible();
    expect(scripts.filter((s) => s.includes('ChapterEditorPage'))).toHaveLength(1);
  });

  test('switching chapters right after typing saves at once, without waiting for the timer', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { book, chapter } = await openChapter(page, author, [
      { title: 'First' },
      { title: 'Second' },
    ]);
    await typeChapter(page, 'Typed just before leaving');
    await page.getByRole('link', { name: 'Second' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Second' })).toBeVisible();
    await expectServerContent(author, chapter.id, 'Typed just before leaving', 4_000);
    await expect(toast(page, 'Autosaved Chapter')).toBeVisible();
    await page.getByRole('link', { name: 'First' }).click();
    await expect(editorText(page)).toHaveText('Typed just before leaving');
    await expect(
      page.getByRole('region', { name: 'Unsaved changes were found on this device' }),
    ).toHaveCount(0);
    expect(book.chapters).toHaveLength(2);
  });

  test('publish, unpublish and rename, with their toasts; a refused rename reverts', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter, book } = await openChapter(page, author, [
      { title: 'Draft One', publish: false },
    ]);

    // Publishing at once after typing publishes what was typed, not what was last autosaved.
    await typeChapter(page, 'The ending, typed just now');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(toast(page, 'Updated Publish Status: True')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
    const published = await serverChapter(author, chapter.id);
    expect(published.is_published).toBe(true);
    expect(published.content).toContain('The ending, typed just now');
    await expect(
      page.getByTestId('workspace-chapter').getByText('Draft', { exact: true }),
    ).toHaveCount(0);

    await page.getByRole('button', { name: 'Unpublish' }).click();
    await expect(toast(page, 'Updated Publish Status: False')).toBeVisible();
    expect((await serverChapter(author, chapter.id)).is_published).toBe(false);

    // Rename with Enter: the field is 25 px; the sidebar follows.
    await page.getByRole('button', { name: 'Edit title' }).click();
    const field = page.getByRole('textbox', { name: 'Chapter title' });
    await expect(field).toHaveCSS('font-size', '25px');
    await field.fill('The Beginning');
    await field.press('Enter');
    await expect(toast(page, 'Changed chapter title to: The Beginning')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'The Beginning' })).toBeVisible();
    await expect(
      page.getByTestId('workspace-chapter').getByRole('link', { name: 'The Beginning' }),
    ).toBeVisible();
    expect((await serverChapter(author, chapter.id)).title).toBe('The Beginning');

    // Rename with the save icon, refused by the server: the old title comes back.
    await page.route(`**/api/books/${book.id}/chapters/${chapter.id}`, (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, body: '{"detail":"boom","code":"internal"}' })
        : route.fallback(),
    );
    await page.getByRole('button', { name: 'Edit title' }).click();
    await field.fill('Never Saved');
    await page.getByRole('button', { name: 'Save title' }).click();
    await expect(toast(page, 'Could not change title name.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'The Beginning' })).toBeVisible();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(toast(page, 'Could not update chapter published status.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
    await page.unroute(`**/api/books/${book.id}/chapters/${chapter.id}`);
    expect((await serverChapter(author, chapter.id)).title).toBe('The Beginning');

    // A rename does not make this tab's next save look like a conflict.
    await typeChapter(page, 'Renamed and still saving');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expect(toast(page, 'Saved "The Beginning"')).toBeVisible();
    await expectServerContent(author, chapter.id, 'Renamed and still saving');
  });

  test('offline: the text stays, a warning shows and the save lands once the API is back', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter } = await openChapter(page, author, [{ title: 'Storm' }]);
    const pattern = `**/api/books/*/chapters/${chapter.id}`;
    await page.route(pattern, (route) =>
      route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback(),
    );

    await typeChapter(page, 'Written while the network was down');
    await expect(toast(page, 'Could not save chapter.')).toBeVisible({ timeout: 10_000 });
    const warning = page
      .getByRole('alert')
      .filter({ hasText: 'Your latest changes are not saved.' });
    await expect(warning).toBeVisible();
    await expect(warning).toContainText('kept on this device');
    await expect(editorText(page)).toHaveText('Written while the network was down');
    const kept = await chapterDrafts(page, chapter.id);
    expect(kept).toHaveLength(1);
    const draft = kept[0];
    expect(JSON.parse(draft!)).toMatchObject({ chapterId: chapter.id, baseVersion: 1 });
    expect(JSON.parse(draft!).content).toContain('Written while the network was down');
    await checkWorkspacePage(page, 'editor-offline');

    // Leaving for another page of the app asks first; staying keeps everything as it was.
    await page.getByRole('link', { name: 'Back to Workspace' }).click();
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(leave).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Storm' })).toBeVisible();

    // Keep typing while offline, then the API comes back: the retry saves all of it. The browser
    // says it is online again (the retries' backoff may have grown long by now).
    await editorText(page).click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type(', and more');
    await page.unroute(pattern);
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expectServerContent(
      author,
      chapter.id,
      'Written while the network was down, and more',
      20_000,
    );
    await expect(warning).toHaveCount(0);
    await expect(page.getByText('All changes saved')).toBeVisible();
    await expect(editorText(page)).toHaveText('Written while the network was down, and more');
    expect(await chapterDrafts(page, chapter.id)).toEqual([]);
  });

  test('logging out right after typing saves the text before the session ends', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter } = await openChapter(page, author, [{ title: 'Last words' }]);
    await typeChapter(page, 'Typed a moment before logging out');
    await page.getByRole('link', { name: 'Log Out' }).click();
    await expect(page.getByText('Logged out. Redirecting...')).toBeVisible();
    await expectServerContent(author, chapter.id, 'Typed a moment before logging out', 5_000);
    await expect(toast(page, 'Could not save chapter.')).toHaveCount(0);
  });

  test('a session that ended mid-edit: logging in again in another tab lets the kept text save', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter } = await openChapter(page, author, [{ title: 'Lapse' }]);
    // Another tab of this browser signs out: the session this page holds is over.
    const ended = await page.context().request.delete(app('/token'));
    expect(ended.status()).toBe(200);

    await typeChapter(page, 'Written after the session ended');
    await page.keyboard.press('ControlOrMeta+s');
    const warning = page
      .getByRole('alert')
      .filter({ hasText: 'Your latest changes are not saved.' });
    await expect(warning).toContainText('Your session has ended.');
    await expect(warning.getByRole('link', { name: 'Log in again in a new tab' })).toBeVisible();

    // Logging in again in another tab sets a new session cookie; this page must save with it,
    // not with the token it held before.
    const other = await page.context().newPage();
    await logIn(other, author);
    await other.close();
    // Coming back to this tab retries at once (as a click on "Retry now" would).
    await page.bringToFront();
    await expectServerContent(author, chapter.id, 'Written after the session ended', 10_000);
    await expect(warning).toHaveCount(0);
    await expect(page.getByText('All changes saved')).toBeVisible();
  });

  test('after a reload, a local draft newer than the server copy is offered back', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter } = await openChapter(page, author, [
      { title: 'Crash', content: '<p>Saved text.</p>' },
    ]);
    const pattern = `**/api/books/*/chapters/${chapter.id}`;
    await page.route(pattern, (route) =>
      route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.fallback(),
    );
    await typeChapter(page, 'Unsaved precious words');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expect(toast(page, 'Could not save chapter.')).toBeVisible();

    // Leaving now asks first (beforeunload), then the page reloads.
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(dialogs).toEqual(['beforeunload']);
    await page.unroute(pattern);

    const offer = page.getByRole('region', { name: 'Unsaved changes were found on this device' });
    await expect(offer).toBeVisible();
    await expect(
      offer.getByRole('figure').filter({ hasText: 'Draft on this device' }),
    ).toContainText('Unsaved precious words');
    await expect(offer.getByRole('figure').filter({ hasText: 'Saved version' })).toContainText(
      'Saved text.',
    );
    await expect(editorText(page)).toHaveAttribute('contenteditable', 'false');
    // Choose first: restoring a kept version meanwhile would drop the draft offered here.
    await expect(page.getByRole('button', { name: 'History' })).toBeDisabled();
    await checkWorkspacePage(page, 'editor-restore-offer');
    await offer.getByRole('button', { name: 'Restore my draft' }).click();
    await expect(offer).toHaveCount(0);
    await expect(editorText(page)).toHaveText('Unsaved precious words');
    await expect(page.getByRole('button', { name: 'History' })).toBeEnabled();
    await expectServerContent(author, chapter.id, 'Unsaved precious words');

    // Nothing is offered once the draft is on the server.
    await page.reload();
    await expect(editorText(page)).toHaveText('Unsaved precious words');
    await expect(offer).toHaveCount(0);
  });

  test('two tabs: the text one tab could not save stays on this device while the other saves on', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter, book } = await openChapter(page, author, [
      { title: 'Twice open', content: '<p>Start.</p>' },
    ]);
    const url = app(`/my/workspace/books/${book.id}/chapters/${chapter.id}`);
    const other = await page.context().newPage();
    await other.goto(url);
    await expect(editorText(other)).toHaveText('Start.');
    await typeChapter(page, 'Tab A first');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expect(toast(page, 'Saved "Twice open"')).toBeVisible();

    // Tab B is refused (tab A saved since it opened): its text is kept on this device.
    await typeChapter(other, 'Words only tab B has');
    await other.getByRole('button', { name: 'Save chapter' }).click();
    await expect(
      other.getByRole('region', { name: 'This chapter was changed somewhere else' }),
    ).toBeVisible();
    // Tab A types and saves on, which once overwrote and then removed the one draft of the chapter.
    await typeChapter(page, 'Tab A again');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expectServerContent(author, chapter.id, 'Tab A again');
    await other.close();

    // Opening the chapter again offers what tab B could not save.
    const third = await page.context().newPage();
    await third.goto(url);
    const offer = third.getByRole('region', { name: 'Unsaved changes were found on this device' });
    await expect(
      offer.getByRole('figure').filter({ hasText: 'Draft on this device' }),
    ).toContainText('Words only tab B has');
    await third.close();
  });

  test('two tabs: a stale save is refused and both versions are shown to choose from', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter, book } = await openChapter(page, author, [
      { title: 'Shared', content: '<p>Start.</p>' },
    ]);
    const other = await page.context().newPage();
    await other.goto(app(`/my/workspace/books/${book.id}/chapters/${chapter.id}`));
    await expect(editorText(other)).toHaveText('Start.');

    // Tab A saves first.
    await typeChapter(page, 'Words from tab A');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expect(toast(page, 'Saved "Shared"')).toBeVisible();

    // Tab B, still on the old version, is refused and shown both.
    await typeChapter(other, 'Words from tab B');
    await other.getByRole('button', { name: 'Save chapter' }).click();
    const choice = other.getByRole('region', { name: 'This chapter was changed somewhere else' });
    await expect(choice).toBeVisible();
    await expect(choice.getByRole('figure').filter({ hasText: 'Your version' })).toContainText(
      'Words from tab B',
    );
    await expect(choice.getByRole('figure').filter({ hasText: 'Saved version' })).toContainText(
      'Words from tab A',
    );
    expect((await serverChapter(author, chapter.id)).content).toContain('Words from tab A');
    await checkWorkspacePage(other, 'editor-conflict');

    // B takes A's text, and goes on from there without another conflict.
    await choice.getByRole('button', { name: 'Use the saved version' }).click();
    await expect(choice).toHaveCount(0);
    await expect(editorText(other)).toHaveText('Words from tab A');
    await editorText(other).click();
    await other.keyboard.press('End');
    await other.keyboard.type(' and B');
    await other.getByRole('button', { name: 'Save chapter' }).click();
    await expect(toast(other, 'Saved "Shared"')).toBeVisible();
    await expectServerContent(author, chapter.id, 'Words from tab A and B');

    // Now A is stale: it keeps its own version on purpose.
    await typeChapter(page, 'Tab A insists');
    await page.getByRole('button', { name: 'Save chapter' }).click();
    const choiceA = page.getByRole('region', { name: 'This chapter was changed somewhere else' });
    await expect(choiceA.getByRole('figure').filter({ hasText: 'Saved version' })).toContainText(
      'Words from tab A and B',
    );
    await choiceA.getByRole('button', { name: 'Keep my version' }).click();
    await expect(choiceA).toHaveCount(0);
    await expectServerContent(author, chapter.id, 'Tab A insists');
    await other.close();
  });

  test('pasting from Google Docs keeps bold, italics, headings and lists and drops the rest', async ({
    page,
  }) => {
    const author = await createUser('author');
    const { chapter } = await openChapter(page, author, [{ title: 'Pasted', content: '<p></p>' }]);
    await typeChapter(page, '');
    const html =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1"><h2 dir="ltr"><span style="font-size:16pt;font-weight:400;">A Heading</span></h2>' +
      '<p dir="ltr"><span style="font-weight:400;font-style:normal;color:#ff0000;font-family:Comic Sans MS">Plain </span><span style="font-weight:700;">strong</span><span style="font-weight:400;"> and </span><span style="font-weight:400;font-style:italic;">slanted</span><a href="https://example.com"> linked</a><img src="https://example.com/x.png"></p>' +
      '<ul><li dir="ltr"><p dir="ltr"><span style="font-weight:400;">First item</span></p></li><li><p><span style="font-weight:400;">Second item</span></p></li></ul></b>';
    await editorText(page).evaluate((el, pasted) => {
      const data = new DataTransfer();
      data.setData('text/html', pasted);
      data.setData(
        'text/plain',
        'A Heading Plain strong and slanted linked First item Second item',
      );
      el.dispatchEvent(
        new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, html);
    const box = editorText(page);
    await expect(box.locator('h2')).toHaveText('A Heading');
    await expect(box.locator('strong')).toHaveText('strong');
    await expect(box.locator('em')).toHaveText('slanted');
    await expect(box.locator('ul > li')).toHaveCount(2);
    await expect(box.locator('a, img, span, [style]')).toHaveCount(0);
    await expect(box.locator('strong')).toHaveCount(1);

    await page.getByRole('button', { name: 'Save chapter' }).click();
    await expectServerContent(author, chapter.id, '<em>slanted</em>');
    const saved = (await serverChapter(author, chapter.id)).content;
    expect(saved).toContain('<h2>A Heading</h2>');
    expect(saved).toContain('<strong>strong</strong>');
    expect(saved).toMatch(/<ul><li><p>First item<\/p><\/li><li><p>Second item<\/p><\/li><\/ul>/);
    expect(saved).not.toMatch(/style=|<span|<a |<img|Comic/);
  });
});
