/**
 * The server's layers point one way (docs/architecture.md, "Layers and their rules"):
 * db/, html/, lib/ sit at the bottom; access/ and presenters/ above them; plugins/ and realtime/
 * are infrastructure that modules use; modules/ hold the features. Each zone lists what it may
 * not import; `npm run lint` fails on a wrong-way import (apps/server/test/unit/lint-rules.test.ts).
 *
 * Paths are resolved (eslint-plugin-import-x, as in web-boundaries.js), so every spelling of the
 * same file is caught alike: `../modules/…`, `./../modules/…`, `../../modules/…` from a module, a
 * nested folder's `../../books/…`, `import type`, `export … from` and a dynamic `import('…')`.
 * Modules and their repositories are read from the directory listing, so a new module is covered
 * without touching this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const server = path.resolve(import.meta.dirname, '../apps/server/src');
const at = (...parts) => path.join(server, ...parts);

const LAYER_RULE = '(docs/architecture.md, "Layers and their rules")';
const layerMessage = (dir) => `this layer may not import ${dir}/ ${LAYER_RULE}`;
export const COMPOSITION_RULE =
  'only main.ts and app.ts compose the application; the rest gets what it needs as arguments (context.ts)';
export const REPOSITORY_RULE = "use the other module's service, not its repository";

/** Each layer with the directories it may not import; none of them imports app.ts or main.ts. */
const LAYERS = [
  {
    layers: ['db', 'html', 'lib'],
    dirs: ['modules', 'plugins', 'realtime', 'access', 'presenters'],
  },
  { layers: ['access', 'presenters'], dirs: ['modules', 'plugins', 'realtime'] },
  { layers: ['plugins', 'realtime'], dirs: ['modules'] },
  { layers: ['modules'], dirs: [] },
];

const modules = fs
  .readdirSync(at('modules'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Each module's repositories (`*.repository.ts`, in nested folders too). */
const repositories = new Map(
  modules.map((module) => [
    module,
    fs
      .readdirSync(at('modules', module), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.repository.ts'))
      .map((file) => at('modules', module, file)),
  ]),
);

const layerZones = LAYERS.flatMap(({ layers, dirs }) => {
  const target = layers.map((layer) => at(layer));
  return [
    ...dirs.map((dir) => ({ target, from: at(dir), message: layerMessage(dir) })),
    { target, from: [at('app.ts'), at('main.ts')], message: COMPOSITION_RULE },
  ];
});

/** A module uses another module's service (or its pure helpers), never its repository. */
const repositoryZones = modules
  .map((module) => ({
    target: at('modules', module),
    from: modules.filter((other) => other !== module).flatMap((other) => repositories.get(other)),
    message: REPOSITORY_RULE,
  }))
  .filter((zone) => zone.from.length > 0);

/** @type {import('eslint').Linter.Config} */
const layers = {
  name: 'inkwell/server-boundaries',
  files: ['apps/server/src/**/*.ts'],
  plugins: { 'import-x': importX },
  settings: {
    // The code imports `.ts` files by their own name, which resolves as it is; `.js` is the other
    // spelling TypeScript (NodeNext) accepts for the same file, so it resolves to the `.ts` file.
    'import-x/resolver-next': [
      createNodeResolver({
        extensions: ['.ts', '.js', '.json', '.node'],
        extensionAlias: { '.js': ['.ts', '.js'] },
      }),
    ],
  },
  rules: {
    'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...repositoryZones] }],
  },
};

/**
 * `type T = import('../x.ts').T` is an import the rule above never sees: write `import type`.
 * Checked everywhere in src/, so it is listed with the publication checks below (one
 * no-restricted-syntax setting per file).
 */
const inlineTypeImport = {
  selector: 'TSImportType[source.value=/^\\./]',
  message: "write `import type { … } from '…'`: the layer rules do not see an import('…') type",
};

/** Publication is compared only in src/access (visibility.ts, policy.ts) and in migrations. */
export const PUBLICATION_RULE =
  'compare publication through src/access (visibility.ts in SQL, policy.ts in services)';
/** A column name as a string: `is_published`, `books.is_published`, `book_is_published`. */
const COLUMN = '/(^|\\.)(book_)?is_published$/';
/** A row's flag, read as `row.is_published`, `row.book_is_published` or `row['is_published']`. */
const FLAG = '/^(book_)?is_published$/';
const READ = `MemberExpression:matches([property.name=${FLAG}], [property.value=${FLAG}])`;
/** The flag read as `parent`'s `field`, bare or through `?.`, `!` (non-null) or `as`. */
const readAs = (parent, field) => [
  `${parent} > ${READ}.${field}`,
  `${parent} > :matches(ChainExpression, TSNonNullExpression, TSAsExpression, TSSatisfiesExpression).${field} > ${READ}.expression`,
];
const publicationChecks = [
  // .where('books.is_published', '=', 1), eb('is_published', ...), .on(...), eb.ref(...);
  // a select list is an array (`.select(['books.is_published'])`), which is fine
  `CallExpression > Literal.arguments[value=${COLUMN}]`,
  // .where('is_published' as const, '=', 1)
  `CallExpression > :matches(TSAsExpression, TSSatisfiesExpression, TSNonNullExpression).arguments > Literal.expression[value=${COLUMN}]`,
  // eb.and({ 'chapters.is_published': 1 }): a column named as an object key
  `Property > Literal.key[value=${COLUMN}]`,
  // eb.and({ is_published: 1 }), eb.or(...); an update's `.set({ is_published: ... })` is fine
  `:matches(CallExpression[callee.property.name=/^(and|or)$/], CallExpression[callee.name=/^(and|or)$/]) > ObjectExpression.arguments > Property > Identifier.key[name=${FLAG}]`,
  // sql`... is_published = 1` in raw SQL
  'TemplateElement[value.raw=/is_published/]',
  // fromFlag(row.is_published) or Boolean(row.is_published) used as a condition (a presenter's
  // `is_published: fromFlag(...)` is fine)
  ...readAs(':not(Property) > CallExpression[callee.name=/^(fromFlag|Boolean)$/]', 'arguments'),
  // if (row.is_published), row.is_published ? a : b, while (...), switch (...)
  ...readAs(
    ':matches(IfStatement, ConditionalExpression, WhileStatement, DoWhileStatement, ForStatement)',
    'test',
  ),
  ...readAs('SwitchStatement', 'discriminant'),
  // !row.is_published
  ...readAs("UnaryExpression[operator='!']", 'argument'),
  // x || row.is_published, row.is_published && y (a default, `input.is_published ?? x`, is fine)
  ...readAs("LogicalExpression:not([operator='??'])", 'left'),
  ...readAs("LogicalExpression:not([operator='??'])", 'right'),
  // row.is_published === 1, 1 === row.is_published, row.is_published !== flag (the API body's
  // `input.is_published !== undefined` or `!= null` asks whether it was sent). The type test is
  // needed: esquery compares as strings, so a bare [right.name='undefined'] matches a Literal too.
  ...['left', 'right'].flatMap((field) =>
    readAs(
      "BinaryExpression:not([left.type='Identifier'][left.name='undefined'], [right.type='Identifier'][right.name='undefined'], [left.raw='null'], [right.raw='null'])",
      field,
    ),
  ),
].map((selector) => ({ selector, message: PUBLICATION_RULE }));

const src = (dir) => `apps/server/src/${dir}/**/*.ts`;

export const serverBoundaries = [
  layers,
  {
    name: 'inkwell/server-publication',
    files: ['apps/server/src/**/*.ts'],
    ignores: [src('access'), src('db/migrations')],
    rules: { 'no-restricted-syntax': ['error', inlineTypeImport, ...publicationChecks] },
  },
  {
    name: 'inkwell/server-inline-type-imports',
    files: [src('access'), src('db/migrations')],
    rules: { 'no-restricted-syntax': ['error', inlineTypeImport] },
  },
];
