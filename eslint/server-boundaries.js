/**
 * The server's layers point one way (docs/architecture.md, "Layers and their rules"):
 * db/, html/, lib/ sit at the bottom; access/ and presenters/ above them; plugins/ and realtime/
 * are infrastructure that modules use; modules/ hold the features. Each zone lists what it may
 * not import; `npm run lint` fails on a wrong-way import (apps/server/test/unit/lint-rules.test.ts).
 */

/** An import of any file under apps/server/src/<dir>/, from anywhere below src/. */
const into = (dir) => ({
  regex: `^(\\.\\./)+(src/)?${dir}/`,
  message: `this layer may not import ${dir}/ (docs/architecture.md, "Layers and their rules")`,
});

const MODULES = into('modules');
const PLUGINS = into('plugins');
const REALTIME = into('realtime');
const ACCESS = into('access');
const PRESENTERS = into('presenters');
const APP = {
  regex: '^(\\.\\./)+(app|main)\\.ts$',
  message:
    'only main.ts and app.ts compose the application; the rest gets what it needs as arguments (context.ts)',
};
const restrict = (...patterns) => ['error', { patterns }];

/** Publication is compared only in src/access (visibility.ts, policy.ts) and in migrations. */
const PUBLICATION_RULE =
  'compare publication through src/access (visibility.ts in SQL, policy.ts in services)';
const publicationChecks = [
  // .where('books.is_published', '=', 1), eb('is_published', ...), .on(...)
  {
    selector: 'CallExpression > Literal.arguments[value=/(^|\\.)is_published$/]',
    message: PUBLICATION_RULE,
  },
  // sql`... is_published = 1` in raw SQL
  { selector: 'TemplateElement[value.raw=/is_published/]', message: PUBLICATION_RULE },
  // fromFlag(row.is_published) used as a condition (a presenter's `is_published: fromFlag(...)` is fine)
  {
    selector:
      ":not(Property) > CallExpression[callee.name='fromFlag'] > MemberExpression.arguments[property.name=/^(book_)?is_published$/]",
    message: PUBLICATION_RULE,
  },
  // row.is_published === 1 (the API body's `input.is_published !== undefined` asks whether it was sent)
  {
    selector:
      "BinaryExpression[right.type='Literal'] > MemberExpression[property.name=/^(book_)?is_published$/]",
    message: PUBLICATION_RULE,
  },
];

const src = (dir) => `apps/server/src/${dir}/**/*.ts`;

export const serverBoundaries = [
  {
    files: [src('db'), src('html'), src('lib')],
    rules: {
      'no-restricted-imports': restrict(MODULES, PLUGINS, REALTIME, ACCESS, PRESENTERS, APP),
    },
  },
  {
    files: [src('access'), src('presenters')],
    rules: { 'no-restricted-imports': restrict(MODULES, PLUGINS, REALTIME, APP) },
  },
  {
    files: [src('plugins'), src('realtime')],
    rules: { 'no-restricted-imports': restrict(MODULES, APP) },
  },
  {
    // A module uses another module's service (or its pure helpers), never its repository.
    files: [src('modules')],
    rules: {
      'no-restricted-imports': restrict(APP, {
        regex: '^\\.\\./[^/.]+/[^/]+\\.repository(\\.ts)?$',
        message: "use the other module's service, not its repository",
      }),
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [src('access'), src('db/migrations')],
    rules: { 'no-restricted-syntax': ['error', ...publicationChecks] },
  },
];
