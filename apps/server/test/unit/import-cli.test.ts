import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, createTestApp, signup, type TestApp, type TestUser } from '../helpers/app.ts';
import { epub3 } from '../helpers/ebooks.ts';
import { importedChapters } from '../helpers/imports.ts';
import { choicesBook } from '../helpers/toc-shapes.ts';

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
      expect(
        lines.some((l) => /^\[#+\.*\]\s+\d+% cli_story\.md: /.test(l)),
        result.stdout + result.stderr,
      ).toBe(true);
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
      const fine = await cli('--user', user.username, good);
      expect(fine, fine.stdout + fine.stderr).toMatchObject({ code: 0 });
      const unknown = await cli('--user', 'nobody-by-that-name', good);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No user named "nobody-by-that-name"');
      expect((await cli(good)).code).toBe(2);
      expect((await cli('--user', user.username)).code).toBe(2);
      expect((await cli('--user', user.username, '--format', 'pdf', good)).code).toBe(2);
    },
  );
});

describe('npm run import: choosing the chapters', () => {
  // Keep the title page, skip chapter 5, merge the interlude into 4, rename 4: the dry run
  // shows them, and the import then does exactly that.
  const CHOICES = ['--keep', '1', '--skip', '5', '--merge', '3', '--rename', '4=Two, Renamed'];
  let book: string;
  beforeAll(async () => {
    book = path.join(dir, 'choices.epub');
    fs.writeFileSync(book, await choicesBook('Chosen by Flags'));
  });
  const myBooks = async () =>
    (await as(t.app, user).get('/api/my/books')).json() as Array<{ id: number; title: string }>;

  it(
    '--dry-run prints the proposed chapters, numbered, with the choices applied, and imports nothing',
    { timeout: 90_000 },
    async () => {
      const before = (await myBooks()).length;
      // No user needed: nothing is written.
      const plain = await cli('--dry-run', book);
      expect(plain.code).toBe(0);
      expect(plain.stdout.split('\n')).toEqual([
        'choices.epub: "Chosen by Flags" by Someone, epub, 6 chapters proposed',
        '  1. [ ] Title Page (5 words, front matter)',
        '  2. [x] One (252 words)',
        '  3. [x] Interlude (2 words)',
        '  4. [x] Two (252 words)',
        '  5. [x] Three (252 words)',
        '  6. [ ] Colophon (3 words, back matter)',
        '  Would import 4 chapters, 758 words.',
        '  Skipped 2 front or back matter sections (cover, title page, copyright, contents...)',
        '',
      ]);
      const chosen = await cli('--dry-run', ...CHOICES, book);
      expect(chosen.code).toBe(0);
      expect(chosen.stdout.split('\n').slice(1, 8)).toEqual([
        '  1. [x] Title Page (5 words, front matter)',
        '  2. [x] One (252 words)',
        '  3. [+] Interlude (2 words, merged into 4)',
        '  4. [x] Two, Renamed (252 words, renamed from "Two")',
        '  5. [ ] Three (252 words)',
        '  6. [ ] Colophon (3 words, back matter)',
        '  Would import 3 chapters, 512 words.',
      ]);
      expect((await myBooks()).length).toBe(before);
    },
  );

  it('imports with the choices, exactly as the summary said', { timeout: 90_000 }, async () => {
    const result = await cli('--user', user.username, ...CHOICES, book);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('✓ Imported "Chosen by Flags" with 3 chapters');
    const imported = (await myBooks()).find((b) => b.title === 'Chosen by Flags')!;
    const chapters = await importedChapters(t.app, user, imported.id);
    expect(chapters.map((c) => c.title)).toEqual(['Title Page', 'One', 'Two, Renamed']);
    expect(chapters[2]!.content).toMatch(/^<h2>Interlude<\/h2><p>A breath\.<\/p>/);
  });

  it(
    'refuses choices it cannot apply: a usage error (2), or a failed file (1) naming the problem',
    { timeout: 90_000 },
    async () => {
      const other = path.join(dir, 'other.md');
      fs.writeFileSync(other, '# Other\n\n## A\n\nText.\n');
      for (const args of [
        ['--skip', 'two'],
        ['--merge', '0'],
        ['--rename', 'Two'],
        ['--rename', '2= '],
      ]) {
        const result = await cli('--user', user.username, ...args, book);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toContain('Usage:');
      }
      const two = await cli('--user', user.username, '--skip', '1', book, other);
      expect(two.code).toBe(2);
      expect(two.stderr).toContain('apply to one file');

      const beyond = await cli('--dry-run', '--skip', '9', book);
      expect(beyond.code).toBe(1);
      expect(beyond.stdout).toContain('✗ The choices name chapter 9, but the file has 6 chapters');
      const last = await cli('--user', user.username, '--merge', '5', book);
      expect(last.code).toBe(1);
      expect(last.stdout).toMatch(/✗ Chapter 5 has no imported chapter after it/);
    },
  );
});
