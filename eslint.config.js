import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { serverBoundaries } from './eslint/server-boundaries.js';
import { webBoundaries } from './eslint/web-boundaries.js';

export default tseslint.config(
  { ignores: ['**/node_modules', '**/dist', 'data', 'bench/results', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  // Import boundaries between layers (docs/architecture.md), one self-contained block per app.
  ...serverBoundaries,
  ...webBoundaries,
);
