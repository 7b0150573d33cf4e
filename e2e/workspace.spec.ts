import { addChapter, createBook, createUser, pngImage, recordRead, unique } from './support/api.ts';
import { app, at, expect, logIn, test } from './support/app.ts';
import {
  apiGet,
  apiStatus,
  authorChapters,
  checkWorkspacePage,
  toast,
} from './support/workspace.ts';

interface ServerBook {
  id: number;
  title: string;
  cover: string | null;
  is_published: boolean;
}

test.describe('workspace', () => {
  test('create, rename and delete a book, with the typed-title modal', async ({ page }) => {
    const author = await createUser('author');
    await logIn(page, author);
    await page.goto(app('/my/workspace'));
    await expect(page.getByRole('heading', { level: 1, name: 'Workspace' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'My Books' })).toBeVisible();
    await expect(page.getByText('No books yet')).toBeVisible();
    await checkWorkspacePage(page, 'workspace-empty');
    // Import sits where an author looks for it: beside Add Book, and in the empty workspace.
    await expect(page.getByRole('link', { name: 'Import a book', exact: true })).toHaveAttribute(
      'href',
      app('/my/import'),
    );
    await expect(
      page.getByRole('link', { name: 'import a book you have already written' }),
    ).toHaveAttribute('href', app('/my/import'));

    const titleInput = page.getByLabel('New book title');
    const addBook = page.getByRole('button', { name: 'Add Book' });
    const cards = page.locator('.workspace-card');
    const title = unique('Harbour Lights');

    await titleInput.fill(title);
    await addBook.click();
    await expect(cards).toHaveCount(1);
    const card = cards.filter({ hasText: title });
    await expect(card.getByText('Book Status: Unpublished')).toBeVisible();
    await expect(card.locator('.cover-fallback')).toHaveText(title);

    // The same title in another case: the form clears and nothing is sent.
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/books')) posts.push(r.postData() ?? '');
    });
    await titleInput.fill(title.toUpperCase());
    await addBook.click();
    await expect(titleInput).toHaveValue('');
    await expect(page.getByText('You already have a book with this title.')).toBeVisible();
    expect(posts).toEqual([]);

    // An empty title becomes 'Untitled Book', then 'Untitled Book (1)'.
    await addBook.click();
    await addBook.click();
    await expect(page.getByRole('heading', { name: 'Untitled Book', exact: true })).toBeVisible();
    await expect(
      page.getByRole('heading', { name: 'Untitled Book (1)', exact: true }),
    ).toBeVisible();
    expect(posts.map((p) => JSON.parse(p).title)).toEqual(['Untitled Book', 'Untitled Book (1)']);
    await expect(cards).toHaveCount(3);
    await checkWorkspacePage(page, 'workspace');

    // Rename through the details editor.
    await card.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Book Details' })).toBeVisible();
    const renamed = `${title} Revisited`;
    await page.getByLabel('Title', { exact: true }).fill(renamed);
    await page.getByRole('button', { name: 'Save Details' }).click();
    await expect(toast(page, 'Updated Book Details')).toBeVisible();
    await page.getByRole('link', { name: 'Back to Workspace' }).click();
    await expect(page).toHaveURL(at('/my/workspace'));
    const renamedCard = cards.filter({ has: page.getByRole('heading', { name: renamed }) });
    await expect(renamedCard).toHaveCount(1);

    // Delete: enabled only on the exact title; Escape, the backdrop and Cancel close the modal.
    const dialog = page.getByRole('dialog', { name: 'Delete book' });
    const confirm = dialog.getByLabel('Type the book title to confirm');
    const deleteButton = dialog.getByRole('button', { name: 'Delete' });
    await renamedCard.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeVisible();
    await expect(deleteButton).toBeDisabled();
    await confirm.fill(renamed.toLowerCase());
    await expect(deleteButton).toBeDisabled();
    await checkWorkspacePage(page, 'workspace-delete-modal');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    await renamedCard.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toHaveValue('');
    await page.mouse.click(8, 400);
    await expect(dialog).toBeHidden();

    await renamedCard.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    // A failed delete keeps the modal open.
    await renamedCard.getByRole('button', { name: 'Delete' }).click();
    await confirm.fill(renamed);
    await expect(deleteButton).toBeEnabled();
    await page.route('**/api/books/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({ status: 500, body: '{"detail":"boom","code":"internal"}' })
        : route.fallback(),
    );
    await deleteButton.click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'The book could not be deleted. Please try again.',
    );
    await expect(dialog).toBeVisible();
    await page.unroute('**/api/books/*');

    await deleteButton.click();
    await expect(dialog).toBeHidden();
    await expect(renamedCard).toHaveCount(0);
    await expect(cards).toHaveCount(2);
    const mine = await apiGet<ServerBook[]>(author, '/api/my/books');
    expect(mine.map((b) => b.title).sort()).toEqual(['Untitled Book', 'Untitled Book (1)']);
  });

  test('details editor: summary, cover upload, genres and publishing, with every toast', async ({
    page,
  }) => {
    const author = await createUser('author');
    const book = await createBook(author, { publish: false, summary: '' });
    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Book Details' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'View Book Page' })).toHaveAttribute(
      'href',
      app(`/books/${book.id}`),
    );
    await checkWorkspacePage(page, 'workspace-details');

    // The summary grows with its content and is never shorter than 22 px.
    const summary = page.getByLabel('Summary');
    const height = async () => (await summary.boundingBox())!.height;
    const empty = await height();
    expect(empty).toBeGreaterThanOrEqual(22);
    await summary.fill('A long summary.\nWith a second line.\nAnd a third.\nAnd a fourth.');
    await expect.poll(height).toBeGreaterThan(empty + 40);

    // Publishing goes through the details form.
    await page.getByLabel('Published').check();
    await page.getByRole('button', { name: 'Save Details' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Updated Book Details' }),
    ).toBeVisible();
    await expect
      .poll(async () => (await apiGet<ServerBook>(author, `/api/books/${book.id}`)).is_published)
      .toBe(true);

    // Cover: a preview first, then the upload.
    const picker = page.getByLabel('Choose Image');
    await picker.setInputFiles({
      name: 'cover.png',
      mimeType: 'image/png',
      buffer: await pngImage('#2d6a4f'),
    });
    const preview = page.getByRole('img', { name: `Cover of ${book.title}` });
    await expect(preview).toHaveAttribute('src', /^blob:/);
    await expect(page.getByText('Preview of cover.png: not uploaded yet')).toBeVisible();
    await page.route('**/api/books/*/cover', (route) =>
      route.fulfill({ status: 500, body: '{"detail":"boom","code":"internal"}' }),
    );
    await page.getByRole('button', { name: 'Upload Cover' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Could not update book cover.' }),
    ).toBeVisible();
    await page.unroute('**/api/books/*/cover');
    await page.getByRole('button', { name: 'Upload Cover' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Updated book cover.' }),
    ).toBeVisible();
    await expect(page.getByText('Current cover')).toBeVisible();
    const withCover = await apiGet<ServerBook>(author, `/api/books/${book.id}`);
    expect(withCover.cover).toBeTruthy();
    await expect(preview).toHaveAttribute('src', withCover.cover!);

    // A file of another type is refused before any upload.
    await picker.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await expect(
      page.getByRole('alert').filter({ hasText: 'Choose a PNG or JPEG image.' }),
    ).toBeVisible();

    // Genres: attached ones leave the list of choices; removal brings them back.
    const select = page.getByLabel('Add a genre');
    const chips = page.getByRole('list', { name: 'Genres of this book' });
    await select.selectOption({ label: 'Fantasy' });
    await page.getByRole('button', { name: 'Add Genre' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Added genre.' })).toBeVisible();
    await expect(chips.getByText('Fantasy')).toBeVisible();
    await expect(select.locator('option', { hasText: 'Fantasy' })).toHaveCount(0);
    await select.selectOption({ label: 'Horror' });
    await page.getByRole('button', { name: 'Add Genre' }).click();
    await expect(chips.getByText('Horror')).toBeVisible();

    await page.route('**/api/books/*/genres', (route) =>
      route.fulfill({ status: 500, body: '{"detail":"boom","code":"internal"}' }),
    );
    await select.selectOption({ label: 'Poetry' });
    await page.getByRole('button', { name: 'Add Genre' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Could not add genre.' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Remove Horror' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Could not delete: Horror' }),
    ).toBeVisible();
    await page.unroute('**/api/books/*/genres');

    await page.getByRole('button', { name: 'Remove Fantasy' }).click();
    await expect(chips.getByText('Fantasy')).toHaveCount(0);
    await expect(select.locator('option', { hasText: 'Fantasy' })).toHaveCount(1);
    const genres = await apiGet<{ genres: Array<{ name: string }> }>(
      author,
      `/api/books/${book.id}/genres`,
    );
    expect(genres.genres.map((g) => g.name)).toEqual(['Horror']);
    await checkWorkspacePage(page, 'workspace-details-filled');

    await page.getByRole('link', { name: 'Back to Workspace' }).click();
    await expect(
      page
        .locator('.workspace-card')
        .filter({ hasText: book.title })
        .getByText('Book Status: Published'),
    ).toBeVisible();
  });

  test('chapters: add, read checkmarks, reorder by keyboard and by drag, reset and save', async ({
    page,
  }) => {
    const author = await createUser('author');
    const book = await createBook(author, {
      chapters: [{ title: 'Arrival' }, { title: 'Bargain' }, { title: 'Crossing', publish: false }],
    });
    await recordRead(author, book.id, book.chapters[0]!.id);
    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}`));

    const rows = page.getByTestId('workspace-chapter');
    const titles = () => rows.locator('.workspace-chapter-link').allTextContents();
    const numbers = () => rows.locator('.chapter-number').allTextContents();
    await expect(rows).toHaveCount(3);
    expect(await numbers()).toEqual(['1', '2', '3']);
    await expect(rows.nth(0).getByText('Read')).toBeAttached();
    await expect(rows.nth(1).getByText('Read')).toHaveCount(0);
    await expect(rows.nth(2).getByText('Draft')).toBeVisible();

    // Add Chapter: 'Untitled Chapter', then 'Untitled Chapter (1)', each at the end.
    // Two clicks in a row: the second already counts the first chapter.
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await expect(rows).toHaveCount(5);
    expect(await titles()).toEqual([
      'Arrival',
      'Bargain',
      'Crossing',
      'Untitled Chapter',
      'Untitled Chapter (1)',
    ]);
    const server = await authorChapters(author, book.id);
    expect(server.map((c) => [c.title, c.chapter_order])).toEqual([
      ['Arrival', 1],
      ['Bargain', 2],
      ['Crossing', 3],
      ['Untitled Chapter', 4],
      ['Untitled Chapter (1)', 5],
    ]);
    await checkWorkspacePage(page, 'workspace-chapters');

    const saveOrder = page.getByRole('button', { name: 'Save Order' });
    const reset = page.getByRole('button', { name: 'Reset' });
    await expect(saveOrder).toHaveCount(0);

    // Keyboard: Space picks up, arrows move, Space drops.
    const crossing = page.getByRole('button', { name: 'Move Crossing' });
    await crossing.focus();
    await page.keyboard.press('Space');
    await expect(crossing).toHaveAttribute('aria-pressed', 'true');
    // dnd-kit listens for the arrows only from the next task after the pick-up; the first "over"
    // announcement comes after that (an arrow pressed before it was lost on a busy CI machine).
    await expect(page.getByText('Crossing is over position 3 of 5.')).toBeAttached();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByText('Crossing is over position 2 of 5.')).toBeAttached();
    await page.keyboard.press('ArrowUp');
    await expect(page.getByText('Crossing is over position 1 of 5.')).toBeAttached();
    await page.keyboard.press('Space');
    await expect(
      page.getByText('Crossing dropped at position 1 of 5. Save the order to keep it.'),
    ).toBeAttached();
    await expect
      .poll(titles)
      .toEqual(['Crossing', 'Arrival', 'Bargain', 'Untitled Chapter', 'Untitled Chapter (1)']);
    expect(await numbers()).toEqual(['1', '2', '3', '4', '5']);
    await expect(saveOrder).toBeVisible();
    await reset.click();
    await expect
      .poll(titles)
      .toEqual(['Arrival', 'Bargain', 'Crossing', 'Untitled Chapter', 'Untitled Chapter (1)']);
    await expect(saveOrder).toHaveCount(0);
    await expect(reset).toHaveCount(0);

    // Mouse: drag 'Untitled Chapter (1)' onto 'Arrival'.
    const handle = page.getByRole('button', { name: 'Move Untitled Chapter (1)' });
    const from = (await handle.boundingBox())!;
    const to = (await rows.nth(0).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
    await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 15 });
    await page.mouse.up();
    await expect
      .poll(titles)
      .toEqual(['Untitled Chapter (1)', 'Arrival', 'Bargain', 'Crossing', 'Untitled Chapter']);
    await checkWorkspacePage(page, 'workspace-chapters-reordered');
    await saveOrder.click();
    await expect(saveOrder).toHaveCount(0);
    await expect
      .poll(async () => (await authorChapters(author, book.id)).map((c) => c.title))
      .toEqual(['Untitled Chapter (1)', 'Arrival', 'Bargain', 'Crossing', 'Untitled Chapter']);
    // The order holds after a reload.
    await page.reload();
    await expect
      .poll(titles)
      .toEqual(['Untitled Chapter (1)', 'Arrival', 'Bargain', 'Crossing', 'Untitled Chapter']);
  });

  test('leaving the book with a new chapter order not saved asks first; Stay keeps the order', async ({
    page,
  }) => {
    const author = await createUser('author');
    const book = await createBook(author, {
      chapters: [{ title: 'Arrival' }, { title: 'Bargain' }, { title: 'Crossing' }],
    });
    const crossing = book.chapters[2]!;
    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}`));
    const rows = page.getByTestId('workspace-chapter');
    const titles = () => rows.locator('.workspace-chapter-link').allTextContents();
    await expect(rows).toHaveCount(3);

    // Keyboard: Space picks up, ArrowDown moves, Space drops (see the reorder test above).
    const arrival = page.getByRole('button', { name: 'Move Arrival' });
    await arrival.focus();
    await page.keyboard.press('Space');
    await expect(page.getByText('Arrival is over position 1 of 3.')).toBeAttached();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByText('Arrival is over position 2 of 3.')).toBeAttached();
    await page.keyboard.press('Space');
    await expect.poll(titles).toEqual(['Bargain', 'Arrival', 'Crossing']);
    const saveOrder = page.getByRole('button', { name: 'Save Order' });
    await expect(saveOrder).toBeVisible();

    // Another page of the same book keeps the sidebar, and the order: nothing to ask.
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
    await page.getByRole('link', { name: 'Crossing' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Crossing' })).toBeVisible();
    await expect(leave).toBeHidden();
    expect(await titles()).toEqual(['Bargain', 'Arrival', 'Crossing']);

    // Leaving the book's workspace asks; Stay keeps the page and the new order.
    await page.getByRole('link', { name: 'Back to Workspace' }).click();
    await expect(leave).toBeVisible();
    await expect(leave).toContainText(
      'The new chapter order is not saved. Leave, and the chapters keep their old order.',
    );
    await leave.getByRole('button', { name: 'Stay' }).click();
    await expect(leave).toBeHidden();
    await expect(page).toHaveURL(at(`/my/workspace/books/${book.id}/chapters/${crossing.id}`));
    expect(await titles()).toEqual(['Bargain', 'Arrival', 'Crossing']);
    await expect(saveOrder).toBeVisible();

    // Leave leaves, and the server keeps the old order.
    await page.getByRole('link', { name: 'Back to Workspace' }).click();
    await leave.getByRole('button', { name: 'Leave' }).click();
    await expect(page).toHaveURL(at('/my/workspace'));
    await expect(page.getByRole('heading', { level: 1, name: 'Workspace' })).toBeVisible();
    expect((await authorChapters(author, book.id)).map((c) => c.title)).toEqual([
      'Arrival',
      'Bargain',
      'Crossing',
    ]);
  });

  test('a failed refresh of the book keeps the workspace, and what is typed in it', async ({
    page,
  }) => {
    const author = await createUser('author');
    const book = await createBook(author, { chapters: [{ title: 'Only one' }] });
    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Book Details' })).toBeVisible();
    await page.getByLabel('Summary').fill('A summary not saved yet');
    // From now on the book cannot be read again (a deploy restarting the server, say).
    let refused = 0;
    await page.route(new RegExp(`/api/books/${book.id}$`), (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      refused++;
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ detail: 'Unavailable', code: 'unavailable' }),
      });
    });
    // Adding a chapter asks for the book again; the refresh and its retries all fail.
    await page.getByRole('button', { name: 'Add Chapter' }).click();
    await expect(page.getByTestId('workspace-chapter')).toHaveCount(2);
    await expect.poll(() => refused, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await expect(page.getByText('Could not load this book.')).toHaveCount(0);
    await expect(page.getByLabel('Summary')).toHaveValue('A summary not saved yet');
  });

  test('delete the open chapter: the typed-title modal, then the book page', async ({ page }) => {
    const author = await createUser('author');
    const book = await createBook(author, {
      chapters: [{ title: 'Keep me' }, { title: 'Drop me' }],
    });
    const doomed = book.chapters[1]!;
    await logIn(page, author);
    await page.goto(app(`/my/workspace/books/${book.id}/chapters/${doomed.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Drop me' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete chapter' });
    await expect(dialog.getByRole('button', { name: 'Delete' })).toBeDisabled();
    await dialog.getByLabel('Type the chapter title to confirm').fill('Drop me');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(at(`/my/workspace/books/${book.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Book Details' })).toBeVisible();
    await expect(page.getByTestId('workspace-chapter')).toHaveCount(1);
    expect(await apiStatus(author, `/api/chapters/${doomed.id}`)).toBe(404);
    expect((await authorChapters(author, book.id)).map((c) => c.title)).toEqual(['Keep me']);
  });

  test("other people's books are not editable, and unknown pages say so", async ({ page }) => {
    const owner = await createUser('author');
    const book = await createBook(owner, { title: unique('Not Yours') });
    await addChapter(owner, book.id, { title: 'Private' });
    const other = await createUser('author');
    await logIn(page, other);
    await page.goto(app(`/my/workspace/books/${book.id}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Not your book' })).toBeVisible();
    await page.goto(app('/my/workspace/books/999999'));
    await expect(page.getByRole('heading', { level: 1, name: 'Book not found' })).toBeVisible();
  });
});
