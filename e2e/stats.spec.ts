import { STATS_PRIVACY_FLOOR } from '@inkwell/contract/constants';
import { apiAs, createBook, createUser, type User } from './support/api.ts';
import { app, checkPage, expect, logIn, test } from './support/app.ts';

/** Issue 20, "Who keeps reading": the author opens the Stats page of a book with readers. */

const paragraphs = (n: number) =>
  Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} of the night.</p>`).join('');

test('the author sees followers, retention, readers and likes, and where readers stop', async ({
  page,
  browser,
}) => {
  const author = await createUser('statsauthor');
  const book = await createBook(author, {
    chapters: [
      { title: 'The first night', content: paragraphs(6) },
      { title: 'The second night', content: paragraphs(4) },
      { title: 'The third night', content: paragraphs(3) },
    ],
  });
  const [one, two, three] = book.chapters.map((chapter) => chapter.id) as [number, number, number];

  // Seven signed-in readers: all read chapter 1 and reach chapter 2, two reach chapter 3.
  const readers: User[] = [];
  for (let i = 0; i < STATS_PRIVACY_FLOOR + 2; i++) readers.push(await createUser('statsreader'));
  for (const [i, reader] of readers.entries()) {
    await apiAs(reader, 'POST', `/api/books/${book.id}/chapters/${one}/history`);
    await apiAs(reader, 'POST', `/api/books/${book.id}/follow`);
    await apiAs(reader, 'POST', `/api/chapters/${one}/like`);
    // Five stop at chapter 2's second paragraph.
    await apiAs(reader, 'PUT', `/api/my/progress/${book.id}`, {
      chapter_id: i < 2 ? three : two,
      paragraph: i < 2 ? 0 : 1,
      offset: 0,
    });
  }
  // A visitor reads chapter 1 in a browser of their own: counted once for the session.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const counted = visitorPage.waitForResponse(
    (res) => res.url().endsWith(`/api/chapters/${one}/view`) && res.status() === 202,
  );
  await visitorPage.goto(app(`/books/${book.id}/chapters/${one}`));
  await counted;
  await visitor.close();

  await logIn(page, author);
  await page.goto(app(`/my/workspace/books/${book.id}`));
  await page.getByRole('link', { name: 'Stats', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/my/workspace/books/${book.id}/stats`));
  await expect(page.getByRole('heading', { name: 'Stats', level: 1 })).toBeVisible();

  await expect(page.getByText(`${readers.length} followers now.`)).toBeVisible();
  await expect(page.getByTestId('stats-chart')).toHaveCount(3);
  await expect(page.locator('.stats-chart canvas').first()).toBeVisible();

  // The visitor's view reaches the figures once this process writes its batch (every 5 s).
  const perChapter = page.getByRole('table', { name: 'Readers, likes and comments per chapter' });
  await expect(async () => {
    await page.reload();
    await expect(perChapter.getByRole('row', { name: /The first night/ })).toContainText(
      String(readers.length + 1),
      { timeout: 1000 },
    );
  }).toPass({ timeout: 20_000 });
  const row = (name: RegExp) => perChapter.getByRole('row', { name });
  await expect(row(/The first night/).getByRole('cell')).toHaveText([
    'The first night',
    String(readers.length + 1),
    String(readers.length),
    '0',
  ]);
  await expect(row(/The second night/).getByRole('cell')).toHaveText([
    'The second night',
    String(readers.length),
    '0',
    '0',
  ]);
  await expect(
    row(/The third night/)
      .getByRole('cell')
      .nth(1),
  ).toHaveText(`fewer than ${STATS_PRIVACY_FLOOR} readers`);
  const retention = page.getByRole('table', { name: 'Retention by chapter' });
  await expect(retention.getByRole('row', { name: /The second night/ })).toContainText('87.5%');

  // The drop-off of chapter 2, chosen from the list: five readers stopped at paragraph 2.
  await page.getByLabel('Chapter', { exact: true }).selectOption(String(two));
  await expect(page).toHaveURL(new RegExp(`chapter=${two}`));
  const dropoff = page.getByRole('table', { name: /stops at each paragraph/ });
  await expect(dropoff.getByRole('row')).toHaveCount(5);
  await expect(dropoff.getByRole('row', { name: /^2 / })).toContainText('5');
  await expect(dropoff.getByRole('row', { name: /^3 / })).toContainText(
    `fewer than ${STATS_PRIVACY_FLOOR} readers`,
  );
  await expect(page.getByTestId('heat-strip').locator('.heat-cell')).toHaveCount(4);
  await checkPage(page, 'stats');

  // Nobody else may see the numbers.
  await logIn(page, readers[0]!);
  await page.goto(app(`/my/workspace/books/${book.id}/stats`));
  await expect(page.getByText('You can only edit your own books.')).toBeVisible();
});

test('a book without published chapters says so, and the page stays accessible', async ({
  page,
}) => {
  const author = await createUser('statsempty');
  const book = await createBook(author, { chapters: [] });
  await logIn(page, author);
  await page.goto(app(`/my/workspace/books/${book.id}/stats`));
  await expect(page.getByText('0 followers now.')).toBeVisible();
  await expect(page.getByText(/No published chapters yet/)).toBeVisible();
  await checkPage(page, 'stats-empty');
});
