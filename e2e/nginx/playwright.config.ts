import { defineConfig } from '@playwright/test';
import base from '../playwright.config.ts';

/**
 * Part of the browser suite again, through nginx in front of two processes on PostgreSQL and
 * Redis (global-setup.ts; issue 22 §4): logging in and out, reading, an autosave, live CHAPTER
 * and FOLLOW notifications, then (./*.spec.ts) chat between two people whose sockets are on
 * different processes, and last a process killed under a reader. `npm test` runs it after the
 * main suite (`npm run test:e2e:nginx`); scripts/check-test-results.mjs fails CI unless it ran.
 */
const THROUGH_NGINX = [
  /log in: wrong password shows the error inline/,
  /log out: 'Logged out. Redirecting...'/,
  /Next records history at once/,
  /autosave lands 5 s after the last keystroke/,
  /sees a live (CHAPTER|FOLLOW) toast/,
];

export default defineConfig({
  ...base,
  testDir: '..',
  // The base config leaves this folder's specs out of the main suite; here they belong.
  testIgnore: [],
  globalSetup: './global-setup.ts',
  outputDir: '../../test-results/e2e-nginx',
  reporter: [
    ['list'],
    // Read by scripts/check-test-results.mjs: CI fails unless these tests really ran.
    ['json', { outputFile: '../../test-results/e2e-nginx-results.json' }],
  ],
  projects: [
    {
      name: 'suite-through-nginx',
      testMatch: /\/e2e\/(accounts|reading|editor|live)\.spec\.ts$/,
      grep: THROUGH_NGINX,
    },
    { name: 'nginx', testMatch: /\/e2e\/nginx\/chat-across\.spec\.ts$/ },
    // Kills a process: after everything else.
    {
      name: 'nginx-backend-kill',
      testMatch: /\/e2e\/nginx\/backend-kill\.spec\.ts$/,
      dependencies: ['suite-through-nginx', 'nginx'],
    },
  ],
});
