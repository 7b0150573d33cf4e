import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import {
  COMPOSITION_RULE,
  PUBLICATION_RULE,
  REPOSITORY_RULE,
} from '../../../../eslint/server-boundaries.js';

// The server's layering and the one place for access rules are enforced by `npm run lint`
// (eslint/server-boundaries.js). Each case lints a small file as if it sat at `path`. Imports
// are resolved to the files they name, so every import below names a file that exists; only the
// importing file is made up.

const eslint = new ESLint({ cwd: new URL('../../../../', import.meta.url).pathname });

type Found = { rule: string; message: string };

async function found(path: string, text: string): Promise<Found[]> {
  const [result] = await eslint.lintText(text, { filePath: `apps/server/src/${path}` });
  return result!.messages.map((m) => ({ rule: m.ruleId ?? m.message, message: m.message }));
}

async function rulesFiredAt(path: string, text: string): Promise<string[]> {
  return (await found(path, text)).map((m) => m.rule);
}

const BOUNDARY = 'import-x/no-restricted-paths';
const layer = (dir: string) => `this layer may not import ${dir}/`;

describe('server import boundaries', () => {
  it.each([
    ['lib/helper.ts', "import { getBook } from '../modules/books/books.service.ts';", 'modules'],
    ['db/helper.ts', "import { auth } from '../plugins/auth.ts';", 'plugins'],
    ['html/helper.ts', "import { published } from '../access/visibility.ts';", 'access'],
    ['lib/helper.ts', "import { toBook } from '../presenters/book.ts';", 'presenters'],
    ['db/helper.ts', "import { bus } from '../realtime/bus.ts';", 'realtime'],
    ['plugins/thing.ts', "import { getBook } from '../modules/books/books.service.ts';", 'modules'],
    [
      'presenters/thing.ts',
      "import type { BookRow } from '../modules/books/books.repository.ts';",
      'modules',
    ],
    ['access/thing.ts', "import { auth } from '../plugins/auth.ts';", 'plugins'],
    // Other spellings of the same files.
    ['lib/helper.ts', "import { getBook } from './../modules/books/books.service.ts';", 'modules'],
    ['lib/helper.ts', "import { getBook } from '../modules/books/books.service.js';", 'modules'],
    ['lib/helper.ts', "export { getBook } from '../modules/books/books.service.ts';", 'modules'],
    [
      'lib/helper.ts',
      "export const load = () => import('../modules/books/books.service.ts');",
      'modules',
    ],
    [
      'db/helper.ts',
      "import { type BookRow } from '../modules/books/books.repository.ts';",
      'modules',
    ],
  ])('refuses a wrong-way import in %s: %s', async (path, text, dir) => {
    const messages = (await found(path, `${text}\nexport {};\n`)).filter(
      (m) => m.rule === BOUNDARY,
    );
    expect(messages.map((m) => m.message)).toEqual([expect.stringContaining(layer(dir))]);
  });

  it.each([
    ['access/thing.ts', "import { buildApp } from '../app.ts';"],
    ['lib/helper.ts', "import { main } from '../main.ts';"],
    ['modules/books/thing.ts', "export const load = () => import('../../app.ts');"],
  ])('refuses app.ts and main.ts outside them, in %s: %s', async (path, text) => {
    const messages = (await found(path, `${text}\nexport {};\n`)).filter(
      (m) => m.rule === BOUNDARY,
    );
    expect(messages.map((m) => m.message)).toEqual([expect.stringContaining(COMPOSITION_RULE)]);
  });

  it.each([
    ['modules/search/thing.ts', "import { findBookById } from '../books/books.repository.ts';"],
    [
      'modules/search/thing.ts',
      "import { findBookById } from '../../modules/books/books.repository.ts';",
    ],
    [
      'modules/imports/parsers/thing.ts',
      "import { findBookById } from '../../books/books.repository.ts';",
    ],
    ['modules/search/thing.ts', "import type { BookRow } from '../books/books.repository.ts';"],
    [
      'modules/search/thing.ts',
      "export const load = () => import('../books/books.repository.ts');",
    ],
    [
      'modules/books/thing.ts',
      "import { issueTicket } from '../accounts/socket-tickets.repository.ts';",
    ],
  ])("refuses another module's repository in %s: %s", async (path, text) => {
    const messages = (await found(path, `${text}\nexport {};\n`)).filter(
      (m) => m.rule === BOUNDARY,
    );
    expect(messages.map((m) => m.message)).toEqual([expect.stringContaining(REPOSITORY_RULE)]);
  });

  it('refuses an import() type, which the path rule does not see', async () => {
    const text =
      "export type Row = import('../modules/books/books.repository.ts').BookRow;\nexport {};\n";
    expect(await rulesFiredAt('presenters/thing.ts', text)).toContain('no-restricted-syntax');
  });

  it.each([
    ['modules/books/books.service.ts', "import * as books from './books.repository.ts';"],
    ['modules/search/thing.ts', "import { getBook } from '../books/books.service.ts';"],
    ['modules/search/thing.ts', "import { getBook } from '../../modules/books/books.service.ts';"],
    [
      'modules/imports/parsers/thing.ts',
      "import { createImport } from '../imports.repository.ts';",
    ],
    ['modules/accounts/thing.ts', "import { issueTicket } from './socket-tickets.repository.ts';"],
    [
      'modules/books/books.repository.ts',
      "import { published } from '../../access/visibility.ts';",
    ],
    ['plugins/thing.ts', "import { nowIso } from '../lib/convert.ts';"],
    ['presenters/thing.ts', "import type { Flag } from '../db/schema.ts';"],
    ['access/thing.ts', "import { fromFlag } from '../lib/convert.ts';"],
    ['main.ts', "import { buildApp } from './app.ts';"],
  ])('allows a downward import in %s: %s', async (path, text) => {
    expect(await rulesFiredAt(path, `${text}\nexport {};\n`)).not.toContain(BOUNDARY);
  });
});

describe('publication is compared only in src/access', () => {
  const cases = {
    'a Kysely condition': "export const q = (db: Q) => db.where('books.is_published', '=', 1);",
    "a Kysely condition on the book's flag":
      "export const q = (db: Q) => db.where('book_is_published', '=', 1);",
    'a column name cast': "export const q = (db: Q) => db.where('is_published' as const, '=', 1);",
    'an object condition': "export const q = (eb: E) => eb.and({ 'chapters.is_published': 1 });",
    'an object condition with a bare key':
      'export const q = (eb: E) => eb.or({ is_published: 1 });',
    'raw SQL': 'export const q = sql`select 1 from chapters c where c.is_published = 1`;',
    'a flag read as a condition': 'export const ok = (row: R) => fromFlag(row.is_published) && 1;',
    'a flag read through Boolean()': 'export const ok = (row: R) => Boolean(row.is_published);',
    'a comparison': 'export const ok = (row: R) => row.book_is_published === 1;',
    'a comparison with the flag on the right':
      'export const ok = (row: R) => 1 === row.is_published;',
    'a comparison with a name': 'export const ok = (row: R, f: 0 | 1) => row.is_published === f;',
    'a computed member': "export const ok = (row: R) => row['is_published'] === 1;",
    'an if': 'export function ok(row: R) {\n  if (row.is_published) return 1;\n  return 0;\n}',
    'a conditional': "export const ok = (row: R) => (row.is_published ? 'yes' : 'no');",
    'a conditional through ?.':
      "export const ok = (row?: R) => (row?.is_published ? 'yes' : 'no');",
    'a negation': 'export const ok = (row: R) => !row.is_published;',
    'an or': 'export const ok = (x: boolean, row: R) => x || row.is_published;',
    'an and': 'export const ok = (row: R, x: boolean) => row.book_is_published && x;',
  };
  const prelude =
    'type Q = { where(...a: unknown[]): Q };\ntype E = { and(o: object): E; or(o: object): E };\n' +
    'type R = { is_published: 0 | 1; book_is_published: 0 | 1 };\n' +
    'declare function fromFlag(v: number): boolean;\ndeclare function sql(s: TemplateStringsArray): string;\n';

  it.each(Object.entries(cases))('refuses %s in a module', async (_kind, text) => {
    const messages = await found('modules/books/books.repository.ts', prelude + text);
    expect(messages).toContainEqual({ rule: 'no-restricted-syntax', message: PUBLICATION_RULE });
  });

  it.each(Object.entries(cases))('allows %s in the access module', async (_kind, text) => {
    expect(await rulesFiredAt('access/visibility.ts', prelude + text)).not.toContain(
      'no-restricted-syntax',
    );
  });

  it('allows it in a migration', async () => {
    const text = Object.values(cases).join('\n').replaceAll('export const ok', 'export const ok2');
    expect(await rulesFiredAt('db/migrations/0999_example.ts', prelude + text)).not.toContain(
      'no-restricted-syntax',
    );
  });

  it("allows a presenter's field and a check that the API body sent the flag", async () => {
    const text =
      'export const out = (row: R) => ({ is_published: fromFlag(row.is_published) });\n' +
      'export const out2 = (row: R) => ({ is_published: Boolean(row.book_is_published) });\n' +
      'export const raw = (row: R) => ({ is_published: row.is_published });\n' +
      'export const sent = (input: { is_published?: boolean }) => input.is_published !== undefined;\n' +
      'export const unsent = (input: { is_published?: boolean }) => input.is_published === undefined;';
    expect(await rulesFiredAt('presenters/book.ts', prelude + text)).not.toContain(
      'no-restricted-syntax',
    );
  });

  it('allows an update that sets the flag, and select lists that name the column', async () => {
    const text =
      'type B = { is_published?: boolean };\ndeclare function toFlag(v: boolean): 0 | 1;\n' +
      'type U = { set(o: object): U; values(o: object): U; returning(c: string[]): U; select(c: string[]): U };\n' +
      'export const set = (db: U, input: Required<B>) =>\n' +
      '  db.set({ is_published: toFlag(input.is_published), updated_at: 1 });\n' +
      'export const insert = (db: U) => db.values({ is_published: 0 });\n' +
      'export const spread = (input: B) => ({\n' +
      '  ...(input.is_published !== undefined && { is_published: toFlag(input.is_published) }),\n' +
      '});\n' +
      "export const listed = (db: U) => db.select(['books.is_published', 'books.is_published as book_is_published']);\n" +
      "export const returned = (db: U) => db.returning(['id', 'is_published']);\n";
    expect(await rulesFiredAt('modules/books/books.repository.ts', text)).not.toContain(
      'no-restricted-syntax',
    );
  });
});
