import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The web app reads limits and helpers from these entry points; anything they import ends up in its
// bundle. zod must not (its eval probe is refused by the page's CSP, and it is large).
const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string>;
};
const zodFree = Object.entries(manifest.exports).filter(([entry]) => entry !== '.');

/** The modules a file imports or re-exports from, type-only imports aside (they are erased). */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const found = source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'/gm);
  return [...found, ...source.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1]!);
}

/** Every file an entry point reaches through relative imports, and the packages it imports. */
function reach(file: string, seen = new Set<string>(), packages = new Set<string>()) {
  if (seen.has(file)) return { seen, packages };
  seen.add(file);
  for (const spec of importsOf(file)) {
    if (spec.startsWith('.')) reach(path.resolve(path.dirname(file), spec), seen, packages);
    else packages.add(spec);
  }
  return { seen, packages };
}

describe('the contract entry points besides the main one', () => {
  it('include constants, ids and search-text', () => {
    expect(zodFree.map(([entry]) => entry)).toEqual(
      expect.arrayContaining(['./constants', './ids', './search-text']),
    );
  });

  it.each(zodFree)('%s imports no package (so no zod)', (_entry, file) => {
    expect([...reach(path.join(root, file)).packages]).toEqual([]);
  });

  it('notices an import of zod (the check can fail)', () => {
    const dir = fs.mkdtempSync(path.join(root, 'test', '.tmp-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.ts'), "export { B } from './b.ts';\n");
      fs.writeFileSync(path.join(dir, 'b.ts'), "import { z } from 'zod';\nexport const B = z;\n");
      expect([...reach(path.join(dir, 'a.ts')).packages]).toEqual(['zod']);
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});
