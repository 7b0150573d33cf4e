import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { basePathFromEnv } from './scripts/base-path.mjs';
import { pagePreloads } from './src/app/pagePreloads.ts';
import { blockingScriptsLastPlugin } from './vite/blocking-scripts-last.ts';
import { pagePreloadsPlugin } from './vite/page-preloads.ts';

/**
 * The app is served under the server's BASE_PATH. index.html is answered for every client route
 * (e.g. /books/3/chapters/9), so asset URLs must be absolute: the base is read here at build time,
 * and the router's basename comes from the same value (import.meta.env.BASE_URL).
 * scripts/ensure-web-build.mjs rebuilds when BASE_PATH changes.
 */
const base = basePathFromEnv(process.env.BASE_PATH);
const api = process.env.INKWELL_API ?? 'http://127.0.0.1:3000';

/**
 * The bundle runs on Preact (through preact/compat) instead of React: it saves ~57 KB gzipped on
 * every route and keeps the reader route under its 100 KB budget (docs/decisions/0007-preact-runtime.md).
 * The source keeps importing 'react' and type-checks against @types/react; only the bundle swaps the
 * runtime. Exact-match patterns so that e.g. 'react-router' is left alone.
 */
export const preactAliases = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  {
    find: /^react-dom\/client$/,
    replacement: fileURLToPath(new URL('./src/lib/preact-client.ts', import.meta.url)),
  },
  { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * React Router's package exports name its development build for every bundler, production builds
 * included (its dev warnings and checks run: remix-run/react-router#12532, #14102). A production
 * bundle takes the production build the package ships beside it.
 */
const reactRouterProduction = {
  find: /^react-router$/,
  replacement: path.join(
    path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
    'dist/production/index.mjs',
  ),
};

export default defineConfig(({ mode }) => ({
  base,
  plugins: [
    react(),
    // dist/page-preloads.json: what the server preloads for a page's first visit (decision 0016).
    pagePreloadsPlugin(pagePreloads),
    blockingScriptsLastPlugin(),
  ],
  resolve: {
    alias: mode === 'production' ? [...preactAliases, reactRouterProduction] : preactAliases,
  },
  build: {
    manifest: true,
    // Every browser that runs this app supports modulepreload; skip the polyfill's bytes.
    modulePreload: { polyfill: false },
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry loads goes in one chunk, instead of the five shared chunks the
          // automatic split makes: a first visit asks for fewer files (decision 0016).
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
    sourcemap: false,
  },
  server: {
    proxy: Object.fromEntries(
      ['api', 'token', 'uploads', 'ws', 'chat'].map((p) => [
        `${base}${p}`,
        { target: api, ws: p === 'ws' || p === 'chat' },
      ]),
    ),
  },
}));
