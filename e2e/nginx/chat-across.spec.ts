import { createUser } from '../support/api.ts';
import { app, basePath, expect, signedInPage, test } from '../support/app.ts';
import { backends, nextSocket, watchSockets } from './support.ts';

test('two readers chat through nginx, their sockets on different processes', async ({
  browser,
}) => {
  const author = await createUser('host');
  const ann = await createUser('ann');
  const bob = await createUser('bob');
  const chat = app(`/authors/${author.username}/chat`);

  const a = await signedInPage(browser, ann);
  const annSockets = await watchSockets(a);
  await a.goto(chat);
  await expect(a.getByText('Connected', { exact: true })).toBeVisible();
  const annOn = (await nextSocket(annSockets, '/chat/')).upstream;

  // Round robin, no stickiness: Bob's socket lands where nginx's turn says. Open it again until
  // it is on the other process; a request of ours in between shifts the turn by one.
  const b = await signedInPage(browser, bob);
  const bobSockets = await watchSockets(b);
  let bobOn = '';
  for (let attempt = 0; attempt < 8 && (bobOn === '' || bobOn === annOn); attempt++) {
    if (attempt % 2 === 1) await fetch(`${process.env.E2E_ORIGIN}${basePath()}/healthz`);
    const before = bobSockets.length;
    await (attempt === 0 ? b.goto(chat) : b.reload());
    bobOn = (await nextSocket(bobSockets, '/chat/', before)).upstream;
    await expect(b.getByText('Connected', { exact: true })).toBeVisible();
  }
  expect(backends().map((p) => p.upstream)).toEqual(expect.arrayContaining([annOn, bobOn]));
  expect(bobOn).not.toBe(annOn);

  const input = a.getByRole('textbox', { name: 'Message' });
  await input.click();
  await input.pressSequentially('Hello across the balancer');
  await input.press('Enter');
  await expect(b.locator('.chat-line', { hasText: 'Hello across the balancer' })).toBeVisible();

  const reply = b.getByRole('textbox', { name: 'Message' });
  await reply.click();
  await reply.pressSequentially('Heard you from the other process');
  await reply.press('Enter');
  await expect(
    a.locator('.chat-line', { hasText: 'Heard you from the other process' }),
  ).toBeVisible();
  for (const page of [a, b]) await page.context().close();
});
