import { addChapter, createBook, createUser, follow } from '../support/api.ts';
import { app, expect, signedInPage, test } from '../support/app.ts';
import { backends, nextSocket, watchSockets } from './support.ts';

/**
 * Issue 22 §4: a process behind nginx is killed (SIGKILL) under a signed-in reader in a chat
 * room. The page shows nothing beyond a brief "Reconnecting..." and works on the survivor within
 * 10 s: chat, and the live notifications. Runs last (it leaves one process).
 */
test('a process killed under a reader: a brief "Reconnecting...", then chat and notifications work on the survivor', async ({
  browser,
}) => {
  const author = await createUser('survivor');
  const reader = await createUser('steadfast');
  await follow(reader, author);
  const book = await createBook(author, { chapters: [{ title: 'Before the fall' }] });

  const page = await signedInPage(browser, reader);
  const sockets = await watchSockets(page);
  await page.goto(app(`/authors/${author.username}/chat`));
  const status = page.locator('.chat-status');
  await expect(status).toHaveText('Connected');
  const chatOn = (await nextSocket(sockets, '/chat/')).upstream;

  // Everything the page shows from now on: the chat's status line, alerts and error toasts.
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { seen: Set<string> }).seen = seen;
    const record = () => {
      for (const el of document.querySelectorAll('.chat-status'))
        seen.add(`status: ${el.textContent}`);
      for (const el of document.querySelectorAll('[role="alert"], .toast-error'))
        seen.add(`error: ${el.textContent}`);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    record();
  });

  const victim = backends().find((p) => p.upstream === chatOn)!;
  const survivor = backends().find((p) => p.upstream !== chatOn)!;
  const before = sockets.length;
  const killedAt = Date.now();
  process.kill(victim.pid, 'SIGKILL');

  await expect(status).toHaveText('Reconnecting...');
  await expect(status).toHaveText('Connected', { timeout: 10_000 });
  const reopened = await nextSocket(sockets, '/chat/', before);
  expect(reopened.upstream).toBe(survivor.upstream);
  expect(reopened.at - killedAt).toBeLessThan(10_000);

  // It works on the survivor: a chat line, and the next chapter's live toast.
  const input = page.getByRole('textbox', { name: 'Message' });
  await input.click();
  await input.pressSequentially('Still here');
  await input.press('Enter');
  await expect(page.locator('.chat-line', { hasText: 'Still here' })).toBeVisible();
  await addChapter(author, book.id, { title: 'After the fall' });
  await expect(page.getByTestId('toast').filter({ hasText: 'After the fall' })).toBeVisible();

  const seen = await page.evaluate(() => [...(window as unknown as { seen: Set<string> }).seen]);
  expect(seen.sort()).toEqual(['status: Connected', 'status: Reconnecting...']);
  await page.context().close();
});
