/**
 * The links that let a page's first visit download its chunks and its data at once, beside the
 * entry script (docs/decisions/0016-page-preloads.md). The web build declares, per page, the
 * chunks and API reads (apps/web/src/app/pagePreloads.ts → dist/page-preloads.json); this module
 * matches a request's path against those pages and writes the `<link>` elements for index.html.
 * No rendering happens here: the page itself is still built in the browser.
 */

import { parseId } from '@inkwell/contract';
import { escapeAttribute } from '../html/escape.ts';
import { escapeRegExp } from '../lib/escape-regexp.ts';

/** dist/page-preloads.json as the web build writes it (apps/web/vite/page-preloads.ts). */
interface PagePreloadsFile {
  pages: { path: string; modules: string[]; styles: string[]; fetches: string[] }[];
}

export const PAGE_PRELOADS_FILE = 'page-preloads.json';

/**
 * A page parameter is matched as any one path segment, then kept only if it is an id in its one
 * spelling (the contract's parseId, as the API's path schemas and the web app's routes read it):
 * /books/007 or /books/0x7 is no book, so it gets no preloads (and no odd URL is echoed).
 */
const SEGMENT = '([^/]+)';

interface CompiledPage {
  pattern: RegExp;
  params: string[];
  links: { attrs: string; href: string }[];
}

/** Answers the `<link>` elements for a request path ('/books/1/chapters/2'), or '' for none. */
export type PagePreloads = (pathname: string) => string;

function compile(page: PagePreloadsFile['pages'][number]): CompiledPage {
  const params: string[] = [];
  const source = page.path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return escapeRegExp(segment);
      params.push(segment.slice(1));
      return SEGMENT;
    })
    .join('/');
  // Data first: it is what the page shows (the LCP); the chunks follow, then chunk styles.
  // `crossorigin` makes each preload match the app's own request (mode cors, same-origin
  // credentials): without it the browser would download everything twice.
  const links = [
    ...page.fetches.map((href) => ({ href, attrs: 'rel="preload" as="fetch" crossorigin' })),
    ...page.modules.map((href) => ({ href, attrs: 'rel="modulepreload" crossorigin' })),
    ...page.styles.map((href) => ({ href, attrs: 'rel="preload" as="style" crossorigin' })),
  ];
  return { pattern: new RegExp(`^${source}/?$`), params, links };
}

/**
 * Compiles the build's page list (the text of PAGE_PRELOADS_FILE). Throws on a file that is not
 * such a list, so a broken build shows at start rather than as pages without preloads.
 */
export function pagePreloadsFrom(json: string): PagePreloads {
  const file = JSON.parse(json) as PagePreloadsFile;
  if (!Array.isArray(file?.pages)) throw new Error(`${PAGE_PRELOADS_FILE}: no "pages" list`);
  const pages = file.pages.map(compile);
  return (pathname) => {
    for (const page of pages) {
      const match = page.pattern.exec(pathname);
      if (!match) continue;
      const ids = match.slice(1).map((segment) => parseId(segment));
      if (ids.some((id) => id === undefined)) continue;
      const values = new Map(page.params.map((name, i) => [`:${name}`, String(ids[i])]));
      const fill = (href: string) =>
        href.replace(/:[A-Za-z_]\w*/g, (name) => values.get(name) ?? name);
      return page.links
        .map(({ attrs, href }) => `<link ${attrs} href="${escapeAttribute(fill(href))}">`)
        .join('\n    ');
    }
    return '';
  };
}
