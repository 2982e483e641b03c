// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules over the sources,
// the tests, the benchmarks, the scripts and the page; `npm run lint`, run by `npm test`.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'coverage/', 'node_modules/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_`-prefixed names say "unused on purpose" (a hook's request, a handler's reply).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // A `let` read by a callback before its one assignment (a timer's start, a panel set up later) stays `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The sanitisers of file names and log lines match control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  { files: ['web/src/**'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
);
