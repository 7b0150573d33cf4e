import path from 'node:path';
import type { Plugin } from 'vite';
import type { PagePreload } from '../src/app/pagePreloads.ts';

/**
 * dist/page-preloads.json, read by the server (apps/server/src/plugins/page-preloads.ts, which
 * declares the same shape; e2e/page-load.spec.ts proves the two agree on a real build).
 */
interface PagePreloadsFile {
  pages: {
    /** The page's address pattern, base included: '/inkwell/books/:bookId'. */
    path: string;
    /** Chunks the page needs that index.html does not already preload, base included. */
    modules: string[];
    /** Stylesheets of those chunks, base included. */
    styles: string[];
    /** API addresses with the page's parameters, base included. */
    fetches: string[];
  }[];
}

const PAGE_PRELOADS_FILE = 'page-preloads.json';

interface OutputChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/**
 * Writes PAGE_PRELOADS_FILE beside index.html: for each declared page, the route module's chunk and
 * every chunk it imports statically, less those the entry already loads (index.html preloads them).
 */
export function pagePreloadsPlugin(pages: readonly PagePreload[]): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'inkwell-page-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const chunks = new Map<string, OutputChunkLike>();
      for (const [fileName, output] of Object.entries(bundle)) {
        if (output.type === 'chunk') chunks.set(fileName, output as unknown as OutputChunkLike);
      }
      const closure = (start: string[]) => {
        const seen = new Set<string>();
        const visit = (fileName: string) => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          for (const dep of chunks.get(fileName)?.imports ?? []) visit(dep);
        };
        start.forEach(visit);
        return seen;
      };
      const loadedByEntry = closure(
        [...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName),
      );
      const at = (p: string) => `${base}${p.replace(/^\//, '')}`;

      const file: PagePreloadsFile = {
        pages: pages.map((page) => {
          const moduleId = path.resolve(root, page.module);
          const route = [...chunks.values()].find((c) => c.facadeModuleId === moduleId);
          if (!route) this.error(`page preloads: no chunk for ${page.module}`);
          const needed = [...closure([route.fileName])].filter((f) => !loadedByEntry.has(f));
          const styles = needed.flatMap((f) => [
            ...(chunks.get(f)?.viteMetadata?.importedCss ?? []),
          ]);
          return {
            path: at(page.path),
            modules: needed.map(at),
            styles: [...new Set(styles)].map(at),
            fetches: page.fetches.map(at),
          };
        }),
      };
      this.emitFile({
        type: 'asset',
        fileName: PAGE_PRELOADS_FILE,
        source: `${JSON.stringify(file, null, 2)}\n`,
      });
    },
  };
}
