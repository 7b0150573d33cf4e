import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { epub3 } from '../helpers/ebooks.ts';

/** `npm run import` as an operator runs it: a child process on the configured database, output piped (no TTY). */
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);

let t: TestApp;
let user: TestUser;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  user = await signup(t.app);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkwell-cli-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const env = {
    ...process.env,
    DATABASE_URL: t.config.DATABASE_URL,
    UPLOAD_DIR: t.config.UPLOAD_DIR,
    LOG_LEVEL: 'silent',
  };
  try {
    const { stdout, stderr } = await run(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['apps/server/src/scripts/import.ts', ...args],
      { cwd: repoRoot, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run import', () => {
  it(
    'imports files for a user with a progress bar per file, and exits non-zero when one fails',
    { timeout: 90_000 },
    async () => {
      const good = path.join(dir, 'cli_story.md');
      fs.writeFileSync(good, '# CLI Story\n\n## One\n\nFirst.\n\n## Two\n\nSecond.\n');
      const epub = path.join(dir, 'tale.epub');
      fs.writeFileSync(
        epub,
        await epub3({
          title: 'CLI Tale',
          docs: [{ file: 'a.xhtml', toc: 'Only', body: '<p>Text.</p>' }],
        }),
      );
      const bad = path.join(dir, 'broken.epub');
      fs.writeFileSync(bad, 'not a zip');

      const result = await cli('--user', user.username, good, bad, epub);
      expect(result.code).toBe(1);
      const lines = result.stdout.split('\n');
      // Plain lines (no terminal): a bar per tenth of progress, then the outcome.
      expect(lines.some((l) => /^\[#+\.*\]\s+\d+% cli_story\.md: /.test(l))).toBe(true);
      expect(result.stdout).toContain('✓ Imported "CLI Story" with 2 chapters');
      expect(result.stdout).toContain('✓ Imported "CLI Tale" with 1 chapter');
      expect(result.stdout).toMatch(
        /broken\.epub: failed\n\s+✗ The file is not a readable zip archive/,
      );
      expect(result.stdout).not.toContain('\r');
      expect(result.stderr).toContain('1 of 3 files failed');

      const titles = (await as(t.app, user).get('/api/my/books'))
        .json()
        .map((b: { title: string; is_published: boolean }) => [b.title, b.is_published]);
      expect(titles).toEqual(
        expect.arrayContaining([
          ['CLI Story', false],
          ['CLI Tale', false],
        ]),
      );
    },
  );

  it(
    'exits 0 when every file is imported, and 2 on a usage error',
    { timeout: 90_000 },
    async () => {
      const good = path.join(dir, 'fine.txt');
      fs.writeFileSync(good, 'Chapter 1\n\nFine.\n');
      expect((await cli('--user', user.username, good)).code).toBe(0);
      const unknown = await cli('--user', 'nobody-by-that-name', good);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No user named "nobody-by-that-name"');
      expect((await cli(good)).code).toBe(2);
      expect((await cli('--user', user.username)).code).toBe(2);
      expect((await cli('--user', user.username, '--format', 'pdf', good)).code).toBe(2);
    },
  );
});
