import type { Plugin } from 'vite';

/** A classic external script: it stops the HTML parser until it has downloaded and run. */
const BLOCKING_SCRIPT =
  /[ \t]*<script(?![^>]*(?:\btype="module"|\basync\b|\bdefer\b))[^>]*\bsrc="[^"]*"[^>]*><\/script>\n?/g;

/**
 * Vite writes the entry script, its module preloads and the stylesheet at the end of <head>,
 * after any script of index.html. A parser-blocking script there (public/theme-init.js, which must
 * run before the first paint) then hides them from the parser until it has run: the browser finds
 * them only through its preload scanner, a beat later. Moved to the end of <head>, the script
 * still runs before the first paint, and the app's files are asked for at once (decision 0016).
 */
export function moveBlockingScriptsLast(html: string): string {
  const end = html.indexOf('</head>');
  if (end === -1) return html;
  const head = html.slice(0, end);
  const scripts = head.match(BLOCKING_SCRIPT) ?? [];
  if (scripts.length === 0) return html;
  const moved = scripts.map((tag) => `  ${tag.trim()}\n  `).join('');
  return `${head.replace(BLOCKING_SCRIPT, '')}${moved}${html.slice(end)}`;
}

export function blockingScriptsLastPlugin(): Plugin {
  return {
    name: 'inkwell-blocking-scripts-last',
    apply: 'build',
    // 'post': after Vite has written its own tags into the page.
    transformIndexHtml: { order: 'post', handler: moveBlockingScriptsLast },
  };
}
