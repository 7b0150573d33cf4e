import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import {
  FEATURE_IMPORTS_FEATURE,
  KEY_OUTSIDE_LIST,
  MUTATION_OUTSIDE_API,
  SHARED_IMPORTS_UP,
} from '../web-boundaries.js';

// The repository's own config, as `npm run lint` runs it, on source placed (virtually) in the web
// app. The imported files exist: the rule resolves each import to the file it names.
const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

async function errors(rule: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

const boundaryErrors = (filePath: string, code: string) =>
  errors('import-x/no-restricted-paths', filePath, code);

describe('web import boundaries (npm run lint)', () => {
  it('fail a feature that imports another feature', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/features/authors/components/Wrong.tsx',
      "import { booksQuery } from '../../books/api/books.ts';\nexport const q = booksQuery;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(FEATURE_IMPORTS_FEATURE);
  });

  it('fail a lazy import of another feature too', async () => {
    const errors = await boundaryErrors(
      'apps/web/src/features/reader/Wrong.ts',
      "export const load = () => import('../editor/paste.ts');\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('fail shared components that import a feature, and lib that imports app/', async () => {
    const component = await boundaryErrors(
      'apps/web/src/components/Wrong.tsx',
      "import { BookCard } from '../features/books/components/BookCard.tsx';\nexport { BookCard };\n",
    );
    expect(component).toHaveLength(1);
    expect(component[0]).toContain(SHARED_IMPORTS_UP);
    const lib = await boundaryErrors(
      'apps/web/src/lib/wrong.ts',
      "import { appRoutes } from '../app/router.tsx';\nexport { appRoutes };\n",
    );
    expect(lib).toHaveLength(1);
    expect(lib[0]).toContain(SHARED_IMPORTS_UP);
  });

  it('let a feature import its own files and shared code, and app/ import features', async () => {
    expect(
      await boundaryErrors(
        'apps/web/src/features/books/components/Fine.tsx',
        "import { booksQuery } from '../api/books.ts';\nimport { api } from '../../../lib/api.ts';\nexport { api, booksQuery };\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'apps/web/src/app/routes/fine.tsx',
        "export const load = () => import('../../features/books/components/BooksPage.tsx');\n",
      ),
    ).toEqual([]);
  });
});

describe('web data access (npm run lint)', () => {
  it('fails a query key written out instead of taken from the list', async () => {
    const code =
      "import { queryOptions } from '@tanstack/react-query';\n" +
      "export const q = queryOptions({ queryKey: ['books', 'all'], queryFn: () => 1 });\n";
    const found = await errors(
      'no-restricted-syntax',
      'apps/web/src/features/books/api/x.ts',
      code,
    );
    expect(found).toEqual([KEY_OUTSIDE_LIST]);
    const listed = code.replace("['books', 'all']", 'keys.bookList');
    expect(
      await errors('no-restricted-syntax', 'apps/web/src/features/books/api/x.ts', listed),
    ).toEqual([]);
  });

  it("fails a mutation outside a feature's api/", async () => {
    const code =
      "import { useMutation } from '@tanstack/react-query';\nexport const useX = () => useMutation({});\n";
    expect(
      await errors('no-restricted-imports', 'apps/web/src/features/books/components/X.tsx', code),
    ).toEqual([expect.stringContaining(MUTATION_OUTSIDE_API)]);
    expect(
      await errors('no-restricted-imports', 'apps/web/src/features/books/api/x.ts', code),
    ).toEqual([]);
  });
});
