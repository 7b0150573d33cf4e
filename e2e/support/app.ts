import {
  expect,
  test as base,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import fs from 'node:fs';
import path from 'node:path';
import { type User } from './api.ts';

/** The app's base path on the test server (e.g. '/inkwell'); every page address goes through app(). */
export const basePath = () => process.env.E2E_BASE_PATH ?? '';
export const app = (p: string) => `${basePath()}${p}`;
/** A pattern for a page address, for toHaveURL. */
export const at = (p: string) =>
  new RegExp(`^[^?#]*${escape(app(p === '/' ? '' : p))}${p === '/' ? '/?' : ''}$`);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-results/screenshots');

/** Signs in through the login form, as a person would. */
export async function logIn(page: Page, user: User, prev?: string) {
  await page.goto(
    prev ? app(`/accounts/login/?prev=${encodeURIComponent(prev)}`) : app('/accounts/login'),
  );
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(at(prev ?? '/home'));
}

/** A new browser context already signed in as the user (the session cookie comes from the login form). */
export async function signedInPage(browser: Browser, user: User) {
  const context = await browser.newContext();
  await countLiveSockets(context);
  const page = await context.newPage();
  await logIn(page, user);
  return page;
}

/**
 * No serious or critical accessibility violation on the page as it is now. WCAG 2.5.3 "label in
 * name" (a link's accessible name must contain its visible text) is an experimental axe rule,
 * off unless named: it is switched on, as issue 23 found the pages failing it.
 */
export async function expectAccessible(page: Page, name: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice', 'experimental'])
    .analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = bad.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`,
  );
  expect(summary, `accessibility violations on ${name}`).toEqual([]);
}

/** Saves a full-page screenshot under test-results/screenshots for the run's artifacts. */
export async function snapshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}

/** Checks a page the way the suite checks every page: accessible, and photographed. */
export async function checkPage(page: Page, name: string) {
  await expectAccessible(page, name);
  await snapshot(page, name);
}

/**
 * Every page of the context counts its open live notification sockets (`{base}/ws`), so that a
 * test can wait for one (`liveSocketOpen`) instead of guessing how long the ticket and the
 * handshake take on a busy machine. The server registers a socket as it accepts it
 * (notification-socket.ts): an open socket hears the next notification.
 */
async function countLiveSockets(context: BrowserContext) {
  await context.addInitScript(() => {
    const page = window as unknown as { liveSocketsOpen: number };
    page.liveSocketsOpen = 0;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        if (!new URL(String(url), location.href).pathname.endsWith('/ws')) return;
        let open = false;
        this.addEventListener('open', () => {
          open = true;
          page.liveSocketsOpen++;
        });
        this.addEventListener('close', () => {
          if (open) page.liveSocketsOpen--;
          open = false;
        });
      }
    };
  });
}

/** Waits until the page's live notification socket is open (see `countLiveSockets`). */
export async function liveSocketOpen(page: Page) {
  await page.waitForFunction(
    () => (window as unknown as { liveSocketsOpen?: number }).liveSocketsOpen! > 0,
  );
}

/** Playwright's test, whose pages count their open live sockets (`liveSocketOpen`). */
export const test = base.extend({
  context: async ({ context }, use) => {
    await countLiveSockets(context);
    await use(context);
  },
});
export { expect };
