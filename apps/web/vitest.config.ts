import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { preactAliases } from './vite.config.ts';

export default defineConfig({
  plugins: [react()],
  // The component tests run on Preact too, as the bundle does. Aliases only apply to inlined modules, so the
  // libraries that import 'react' themselves are inlined rather than externalized.
  // @testing-library/react's CommonJS build would require() the real react-dom: use its ES build.
  resolve: {
    alias: [
      ...preactAliases,
      {
        find: /^@testing-library\/react$/,
        replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
      },
    ],
    // ...and prefer ES builds elsewhere (react-router's "node" condition is CommonJS otherwise).
    conditions: ['module', 'browser', 'development|production'],
  },
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    include: ['test/**/*.test.{ts,tsx}', 'src/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup.ts'],
    server: {
      deps: {
        inline: [
          /@testing-library\/react/,
          /react-router/,
          /@tanstack\/react-query/,
          /@tiptap\/react/,
          /@dnd-kit/,
        ],
      },
    },
  },
});
