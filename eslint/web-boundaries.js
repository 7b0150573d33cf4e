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
export const webBoundaries = {
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
