/**
 * The web app's layers (docs/architecture.md): `app/` composes the features; a feature never
 * imports another one; shared code (`components/`, `lib/`) never imports `app/` or a feature.
 * What two features both need belongs in `components/` or `lib/`.
 *
 * Paths are resolved (eslint-plugin-import-x), so `../../books/api/books.ts` and any other spelling
 * of the same file are caught alike. Every directory under features/ gets its own zone, so a new
 * feature is covered without touching this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';

const web = path.resolve(import.meta.dirname, '../apps/web/src');
const features = fs
  .readdirSync(path.join(web, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export const FEATURE_IMPORTS_FEATURE =
  'A web feature never imports another feature: move what both need to components/ or lib/.';
export const SHARED_IMPORTS_UP =
  'Shared web code (components/, lib/) never imports app/ or a feature.';

/** @type {import('eslint').Linter.Config} */
const layers = {
  name: 'inkwell/web-boundaries',
  files: ['apps/web/src/**/*.{ts,tsx}'],
  plugins: { 'import-x': importX },
  settings: { 'import-x/resolver-next': [createNodeResolver()] },
  rules: {
    'import-x/no-restricted-paths': [
      'error',
      {
        zones: [
          ...features.map((feature) => ({
            target: path.join(web, 'features', feature),
            from: path.join(web, 'features'),
            except: [`./${feature}`],
            message: FEATURE_IMPORTS_FEATURE,
          })),
          {
            target: [path.join(web, 'components'), path.join(web, 'lib')],
            from: [path.join(web, 'app'), path.join(web, 'features')],
            message: SHARED_IMPORTS_UP,
          },
        ],
      },
    ],
  },
};

export const KEY_OUTSIDE_LIST = 'Query keys come from the one list, lib/query-keys.ts (keys.*).';
export const MUTATION_OUTSIDE_API =
  "A mutation lives in its feature's api/, next to the queries whose cache it updates.";

/**
 * Data access (docs/architecture.md): every query key from the one list, every mutation in a
 * feature's api/ (lib/appearance.tsx, the app-wide reader settings, keeps its own beside its query).
 */
/** @type {import('eslint').Linter.Config[]} */
const dataAccess = [
  {
    name: 'inkwell/web-query-keys',
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "Property[key.name='queryKey'] > ArrayExpression", message: KEY_OUTSIDE_LIST },
      ],
    },
  },
  {
    name: 'inkwell/web-mutations',
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/features/*/api/**', 'apps/web/src/lib/appearance.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-query',
              importNames: ['useMutation'],
              message: MUTATION_OUTSIDE_API,
            },
          ],
        },
      ],
    },
  },
];

/** The web app's rules, one block for eslint.config.js to spread. */
export const webBoundaries = [layers, ...dataAccess];
