import { REVISIONS_LIST_LIMIT } from '@inkwell/contract/constants';
import { apiAs, createBook, createUser } from './support/api.ts';
import { app, expect, expectAccessible, logIn, test } from './support/app.ts';
import { authorChapters, editorText, toast } from './support/workspace.ts';

/** Issue 20, "Every version kept": the editor's History panel, and recently deleted chapters. */
test.describe('versions of a chapter', () => {
  test('restores an old version from the History panel, by keyboard, and the reader shows it', async ({
    page,
  }) => {
    const author = await createUser('historian');
    const book = await createBook(author, {
      chapters: [{ title: 'The Harbour', content: '<p>The old boats sailed at dawn.</p>' }],
    });
    const chapter = book.chapters[0]!;
    await apiAs(author, 'PUT', `/api/books/${book.id}/chapters/${chapter.id}`, {
      content: '<p>The new ships sailed at dawn, and never came back.</p>',
    });

    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}/chapters/${chapter.id}`));
    await expect(editorText(page)).toContainText('never came back');
    // Typing not yet saved: a restore must keep it as a version, not drop it.
    await editorText(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Unsaved tail.');

    const historyButton = page.getByRole('button', { name: 'History', exact: true });
    await historyButton.click();
    await expect(historyButton).toHaveAttribute('aria-expanded', 'true');
    const panel = page.getByRole('region', { name: 'History' });
    await expect(panel.getByRole('heading', { name: 'History', level: 2 })).toBeFocused();
    const versions = panel.locator('button.history-version');
    // Newest first: the manual save, the publication, the creation (kind "Saved").
    await expect(versions).toHaveCount(3);
    await expect(versions.nth(0)).toContainText('Saved');
    await expect(versions.nth(1)).toContainText('Published');
    await expect(panel.getByRole('group')).toHaveCount(1);

    // Keyboard: Tab to the list, End to the oldest, Enter to choose it.
    await versions.nth(0).focus();
    await page.keyboard.press('ArrowDown');
    await expect(versions.nth(1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(versions.nth(2)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(versions.nth(2)).toHaveAttribute('aria-pressed', 'true');
    const diff = panel.getByRole('region', { name: /Changes in/ });
    await expect(diff.locator('ins.diff-added').first()).toContainText('old');
    await expect(diff.locator('del.diff-removed').first()).toContainText('new');
    await expect(diff).toContainText('Unsaved tail.');
    await expectAccessible(page, 'editor history panel');

    await panel.getByRole('button', { name: 'Restore this version' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore this version?' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'restore confirmation');
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await expect(toast(page, 'Restored an earlier version.')).toBeVisible();
    await expect(editorText(page)).toHaveText('The old boats sailed at dawn.');
    await expect(page.getByRole('region', { name: 'History' })).toHaveCount(0);

    // The unsaved typing was kept as a version before the restore.
    const { revisions } = await apiAs<{ revisions: Array<{ id: number; kind: string }> }>(
      author,
      'GET',
      `/api/chapters/${chapter.id}/revisions`,
    );
    // The typing went as an autosave if its timer fired first, else as the restore's own save.
    expect(revisions.map((r) => r.kind)).toEqual([
      'restore',
      expect.stringMatching(/^(auto)?save$/),
      'save',
      'publish',
      'save',
    ]);
    const kept = await apiAs<{ content: string }>(
      author,
      'GET',
      `/api/chapters/${chapter.id}/revisions/${revisions[1]!.id}`,
    );
    expect(kept.content).toContain('Unsaved tail.');

    await page.goto(app(`/books/${book.id}/chapters/${chapter.id}`));
    await expect(page.getByText('The old boats sailed at dawn.')).toBeVisible();
    await expect(page.getByText('never came back')).toHaveCount(0);
  });

  test('shows the versions older than the newest page on request', async ({ page }) => {
    const author = await createUser('prolific');
    const book = await createBook(author, { chapters: [{ title: 'The Long Draft' }] });
    const chapter = book.chapters[0]!;
    // Creation and publication kept two versions; a full page of autosaves pushes them to the next.
    for (let i = 1; i <= REVISIONS_LIST_LIMIT; i++)
      await apiAs(author, 'PUT', `/api/books/${book.id}/chapters/${chapter.id}`, {
        content: `<p>Draft ${i}.</p>`,
        autosave: true,
      });

    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}/chapters/${chapter.id}`));
    await page.getByRole('button', { name: 'History', exact: true }).click();
    const panel = page.getByRole('region', { name: 'History' });
    const versions = panel.locator('button.history-version');
    await expect(versions).toHaveCount(REVISIONS_LIST_LIMIT);
    await expect(versions.last()).toContainText('Autosave');

    await panel.getByRole('button', { name: 'Show older versions' }).click();
    await expect(versions).toHaveCount(REVISIONS_LIST_LIMIT + 2);
    // That page came back short: nothing older, and focus is on the first version it brought.
    await expect(panel.getByRole('button', { name: /older versions/ })).toHaveCount(0);
    await expect(versions.nth(REVISIONS_LIST_LIMIT)).toBeFocused();
    await expect(versions.nth(REVISIONS_LIST_LIMIT)).toContainText('Published');

    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    const diff = panel.getByRole('region', { name: /Changes in Saved/ });
    await expect(diff).toContainText('begins here');
  });
});

test.describe('recently deleted chapters', () => {
  test('restores a deleted chapter into its place in the order', async ({ page }) => {
    const author = await createUser('restorer');
    const book = await createBook(author, {
      chapters: [{ title: 'First Light' }, { title: 'Middle Watch' }, { title: 'Last Bell' }],
    });
    const middle = book.chapters[1]!;
    await apiAs(author, 'DELETE', `/api/chapters/${middle.id}`);

    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}`));
    const section = page.getByRole('region', { name: 'Recently deleted' });
    await expect(section.getByText('Middle Watch')).toBeVisible();
    await expect(section).toContainText('chapter 2');
    await expectAccessible(page, 'recently deleted');

    await section.getByRole('button', { name: 'Restore Middle Watch' }).click();
    await expect(toast(page, 'Restored "Middle Watch".')).toBeVisible();
    await expect(section.getByText('No recently deleted chapters.')).toBeVisible();
    const sidebar = page.getByRole('complementary', { name: 'Book workspace' });
    await expect(sidebar.getByText('Middle Watch')).toBeVisible();
    expect((await authorChapters(author, book.id)).map((c) => [c.title, c.chapter_order])).toEqual([
      ['First Light', 1],
      ['Middle Watch', 2],
      ['Last Bell', 3],
    ]);

    await page.goto(app(`/books/${book.id}/chapters/${middle.id}`));
    await expect(page.getByText('Middle Watch begins here.')).toBeVisible();
  });
});
