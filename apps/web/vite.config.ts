import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { basePathFromEnv } from './scripts/base-path.mjs';

/**
 * The app is served under the server's BASE_PATH. index.html is answered for every client route
 * (e.g. /books/3/chapters/9), so asset URLs must be absolute: the base is read here at build time,
 * and the router's basename comes from the same value (import.meta.env.BASE_URL).
 * scripts/ensure-web-build.mjs rebuilds when BASE_PATH changes.
 */
const base = basePathFromEnv(process.env.BASE_PATH);
const api = process.env.INKWELL_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  base,
  plugins: [react()],
  build: {
    manifest: true,
    // Every browser that runs this app supports modulepreload; skip the polyfill's bytes.
    modulePreload: { polyfill: false },
    target: 'es2022',
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
});
