import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: Debian's Chromium (apt-get install chromium) against a real server on a fresh
 * SQLite database, started by global-setup.ts under a BASE_PATH so the prefix is exercised too.
 * Playwright's own browsers are never downloaded.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Those run through nginx in front of two processes, by e2e/nginx/playwright.config.ts.
  testIgnore: ['**/nginx/**'],
  globalSetup: './global-setup.ts',
  outputDir: '../test-results/e2e',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: '../playwright-report', open: 'never' }],
    // Read by scripts/check-test-results.mjs: CI fails unless the browser tests really ran.
    ['json', { outputFile: '../test-results/e2e-results.json' }],
  ],
  use: {
    // The server's origin, set by global-setup.ts before the workers start; pages are at app(path).
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 860 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
