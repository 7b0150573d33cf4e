import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadNameOfHref } from '../../src/lib/upload-store.ts';
import { createBook, createTestApp, signup, type TestApp } from '../helpers/app.ts';
import { makeImage, multipart } from '../helpers/images.ts';

/**
 * `npm run uploads:migrate` as an operator runs it: a child process on the site's database and
 * upload folder, output piped (no terminal), on the engine under test.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const run = promisify(execFile);

let folderSite: TestApp;
let hrefs: string[];

beforeAll(async () => {
  // A site that has been using the folder store: an avatar and a cover in its UPLOAD_DIR.
  folderSite = await createTestApp();
  const owner = await signup(folderSite.app);
  const bookId = (await createBook(folderSite.app, owner, 'Migrated Cover')).id;
  hrefs = [];
  for (const [url, image] of [
    ['/api/authors/avatar', await makeImage('png', 30, 30, { alpha: true })],
    [`/api/books/${bookId}/cover`, await makeImage('jpeg', 60, 90)],
  ] as const) {
    const form = multipart('image', image, 'image.png', 'image/png');
    const res = await folderSite.app.inject({
      method: 'POST',
      url,
      payload: form.payload,
      headers: { ...form.headers, authorization: `Bearer ${owner.token}` },
    });
    hrefs.push(res.json().href);
  }
  // What else a folder may hold: none of it is an upload, none of it is copied.
  const folder = folderSite.config.UPLOAD_DIR;
  fs.writeFileSync(path.join(folder, 'README.txt'), 'not an image');
  fs.writeFileSync(path.join(folder, `${uploadNameOfHref(hrefs[0]!)}.4242.x.tmp`), 'half');
  fs.writeFileSync(path.join(folder, `${'a'.repeat(32)}.jpg`), crypto.randomBytes(64));
  fs.mkdirSync(path.join(folder, 'thumbnails'));
});
afterAll(() => folderSite.close());

async function migrate(env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['apps/server/src/scripts/migrate-uploads.ts'],
      {
        cwd: repoRoot,
        env: {
          ...process.env,
          DATABASE_URL: folderSite.config.DATABASE_URL,
          UPLOAD_DIR: folderSite.config.UPLOAD_DIR,
          ...env,
        },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const storedNames = async () =>
  (await folderSite.ctx.db.selectFrom('uploads').select('name').orderBy('name').execute()).map(
    (row) => row.name,
  );

describe('npm run uploads:migrate', () => {
  it(
    'copies the folder into the database with a progress bar, and copies nothing the second time',
    { timeout: 60_000 },
    async () => {
      expect(await storedNames()).toEqual([]);

      const first = await migrate();
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      const lines = first.stdout.split('\n');
      // Plain lines (no terminal): a bar per tenth of progress through the three files named
      // like uploads, ending at the whole.
      expect(lines[0]).toMatch(/^\[\.+\]\s+0% uploads: 0 of 3$/);
      expect(lines).toContain(`[${'#'.repeat(30)}] 100% uploads: 3 of 3`);
      expect(first.stdout).not.toContain('\r');
      expect(first.stdout).toContain('Copied 2, already there 0, skipped 4');
      expect(first.stdout).toContain('skipped README.txt: not the name of an upload');
      expect(first.stdout).toContain('skipped thumbnails: not a file');
      expect(first.stdout).toContain(`skipped ${'a'.repeat(32)}.jpg: its bytes do not match`);
      expect(first.stdout).toMatch(/skipped [0-9a-f]{32}\.png\.4242\.x\.tmp: not the name/);
      expect(first.stdout).toContain('Set UPLOAD_STORE=database');
      expect(await storedNames()).toEqual(hrefs.map(uploadNameOfHref).sort());

      const second = await migrate({ UPLOAD_STORE: 'database' });
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('Copied 0, already there 2, skipped 4');
      expect(second.stdout).not.toContain('Set UPLOAD_STORE');
      expect(await storedNames()).toEqual(hrefs.map(uploadNameOfHref).sort());

      // A process on the database store, with an empty folder of its own, serves them all:
      // the same hrefs, the same bytes.
      const databaseSite = await createTestApp(
        { UPLOAD_STORE: 'database' },
        { database: folderSite.database },
      );
      try {
        for (const href of hrefs) {
          const res = await databaseSite.app.inject({ method: 'GET', url: href });
          expect(res.statusCode, href).toBe(200);
          const file = fs.readFileSync(
            path.join(folderSite.config.UPLOAD_DIR, uploadNameOfHref(href)),
          );
          expect(res.rawPayload.equals(file)).toBe(true);
        }
      } finally {
        await databaseSite.close();
      }
    },
  );

  it('refuses a folder that is not there, and says which', async () => {
    const missing = path.join(folderSite.config.UPLOAD_DIR, 'no-such-folder');
    const result = await migrate({ UPLOAD_DIR: missing });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`No folder ${missing} (UPLOAD_DIR)`);
  });
});
