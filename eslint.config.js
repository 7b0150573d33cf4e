import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { serverBoundaries } from './eslint/server-boundaries.js';

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
  ...serverBoundaries,
);
