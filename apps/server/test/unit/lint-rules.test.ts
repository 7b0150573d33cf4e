import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The server's layering and the one place for access rules are enforced by `npm run lint`
// (eslint/server-boundaries.js). Each case lints a small file as if it sat at `path`.

const eslint = new ESLint({ cwd: new URL('../../../../', import.meta.url).pathname });

async function rulesFiredAt(path: string, text: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `apps/server/src/${path}` });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

describe('server import boundaries', () => {
  it.each([
    ['lib/helper.ts', "import { getBook } from '../modules/books/books.service.ts';"],
    ['db/helper.ts', "import { auth } from '../plugins/auth.ts';"],
    ['html/helper.ts', "import { published } from '../access/visibility.ts';"],
    ['plugins/thing.ts', "import { getBook } from '../modules/books/books.service.ts';"],
    ['presenters/thing.ts', "import type { BookRow } from '../modules/books/books.repository.ts';"],
    ['access/thing.ts', "import { buildApp } from '../app.ts';"],
    ['modules/search/thing.ts', "import { findBookById } from '../books/books.repository.ts';"],
  ])('refuses a wrong-way import in %s', async (path, text) => {
    expect(await rulesFiredAt(path, `${text}\nexport {};\n`)).toContain('no-restricted-imports');
  });

  it.each([
    ['modules/books/books.service.ts', "import * as books from './books.repository.ts';"],
    ['modules/search/thing.ts', "import { getBook } from '../books/books.service.ts';"],
    [
      'modules/books/books.repository.ts',
      "import { published } from '../../access/visibility.ts';",
    ],
    ['plugins/thing.ts', "import { nowIso } from '../lib/convert.ts';"],
  ])('allows a downward import in %s', async (path, text) => {
    expect(await rulesFiredAt(path, `${text}\nexport {};\n`)).not.toContain(
      'no-restricted-imports',
    );
  });
});

describe('publication is compared only in src/access', () => {
  const cases = {
    'a Kysely condition': "export const q = (db: Q) => db.where('books.is_published', '=', 1);",
    'raw SQL': 'export const q = sql`select 1 from chapters c where c.is_published = 1`;',
    'a flag read as a condition': 'export const ok = (row: R) => fromFlag(row.is_published) && 1;',
    'a comparison': 'export const ok = (row: R) => row.book_is_published === 1;',
  };
  const prelude =
    'type Q = { where(...a: unknown[]): Q };\ntype R = { is_published: 0 | 1; book_is_published: 0 | 1 };\n' +
    'declare function fromFlag(v: number): boolean;\ndeclare function sql(s: TemplateStringsArray): string;\n';

  it.each(Object.entries(cases))('refuses %s in a module', async (_kind, text) => {
    expect(await rulesFiredAt('modules/books/books.repository.ts', prelude + text)).toContain(
      'no-restricted-syntax',
    );
  });

  it.each(Object.entries(cases))('allows %s in the access module', async (_kind, text) => {
    expect(await rulesFiredAt('access/visibility.ts', prelude + text)).not.toContain(
      'no-restricted-syntax',
    );
  });

  it("allows a presenter's field and a check that the API body sent the flag", async () => {
    const text =
      'export const out = (row: R) => ({ is_published: fromFlag(row.is_published) });\n' +
      'export const sent = (input: { is_published?: boolean }) => input.is_published !== undefined;';
    expect(await rulesFiredAt('presenters/book.ts', prelude + text)).not.toContain(
      'no-restricted-syntax',
    );
  });
});
