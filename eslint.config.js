// ESLint for the whole tree: type-aware TypeScript rules, React and its hooks, accessibility, and
// the import rules that keep our layers pointing down (see CONTRIBUTING.md, "Layers"). Run with
// `npm run lint`; `npm test` runs it with zero warnings allowed. Formatting is Prettier's job, so
// eslint-config-prettier switches off every stylistic rule that would fight it.
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Who may import whom (CONTRIBUTING.md, "Layers"): `scripts` → `server` → `app` → `core` → `db`,
 * imports point down only. A lower layer never reaches up, so the schema (`db/`) knows nothing of
 * the rules, business rules (`core/`) stay free of HTTP and React, and the browser bundle (`app/`)
 * never pulls in the database or the server; nothing imports `tests/`. `npm run check:imports`
 * (scripts/support/import-graph.ts, LAYER_RULES) applies the same table to the whole tree, and a
 * unit test holds the two equal.
 */
const layerZones = [
  {
    target: './db',
    from: ['./core', './server', './app', './scripts', './tests'],
    message: 'db/ is the lowest layer: it must not import a higher one (core/ included).',
  },
  {
    target: './core',
    from: ['./server', './app', './scripts', './tests'],
    message: 'core/ holds business rules only: pass what it needs in instead of importing a higher layer.',
  },
  {
    target: './app',
    from: ['./db', './server', './scripts', './tests'],
    message: 'app/ is bundled for the browser: reach data through route loaders or the API, not db/ or server/.',
  },
  { target: './server', from: ['./scripts', './tests'], message: 'server/ must not import scripts or tests.' },
  { target: './scripts', from: ['./tests'], message: 'scripts/ must not import tests.' },
];

export default defineConfig(
  globalIgnores([
    'node_modules/',
    'build/',
    'server-build*/',
    'data/',
    '.react-router/',
    '.tmp/',
    'test-results/',
    'playwright-report/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // React Router loaders throw a `Response` (redirect) or `data(...)` to stop rendering.
      '@typescript-eslint/only-throw-error': [
        'error',
        {
          allow: [
            { from: 'lib', name: 'Response' },
            { from: 'package', package: 'react-router', name: 'DataWithResponseInit' },
          ],
        },
      ],
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A disable comment names its rule and says why after `--`; a file-wide or blanket one is refused.
      '@eslint-community/eslint-comments/require-description': 'error',
      '@eslint-community/eslint-comments/no-unlimited-disable': 'error',
      '@eslint-community/eslint-comments/disable-enable-pair': 'error',
      'no-console': 'off',
    },
  },

  // Imports: layers, and imports that resolve. Cycles are `npm run check:imports`'s: it sees type
  // imports too, and covers every folder, tests/ included, in seconds (decision 077).
  {
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x cannot parse the TypeScript files it follows, nor resolve the
      // imports its layer zones judge.
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': ['error', { 'prefer-inline': true }],
      'import-x/no-useless-path-segments': 'error',
      'import-x/first': 'error',
    },
  },

  // React: the components and routes under app/, plus component tests.
  {
    files: ['app/**/*.{ts,tsx}', 'tests/**/*.tsx'],
    ...react.configs.flat.recommended,
    ...react.configs.flat['jsx-runtime'],
    plugins: { react, 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    settings: { react: { version: 'detect' } },
    languageOptions: {
      ...react.configs.flat.recommended.languageOptions,
      globals: { ...globals.browser },
    },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat['jsx-runtime'].rules,
      ...reactHooks.configs.flat['recommended-latest'].rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      // A scrollable table wrapper takes focus so keyboard users can scroll it (axe's
      // scrollable-region-focusable); as a labelled `region` it is announced properly.
      'jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true },
      ],
      // Types are checked by TypeScript, not by runtime prop-types.
      'react/prop-types': 'off',
    },
  },

  // The store's links render as plain anchors on the server (app/components/Link.server.tsx,
  // decisions 078 and 079): one import for every page, so none falls back to the router's costlier
  // links.
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['app/components/Link.tsx', 'app/components/Link.server.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['Link', 'NavLink'],
              message:
                'Import Link and NavLink from app/components/Link.tsx: on the server they render the same anchor for less.',
            },
          ],
        },
      ],
    },
  },

  // Fastify plugins are async functions by contract: an async plugin that throws while it
  // registers routes fails `register()` (and so the boot) with that error, where a callback-style
  // plugin would crash the process instead. Most of ours never need to await.
  {
    files: ['server/**/*.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },

  // Tests read JSON replies (`response.json()` is `any`) and assert on them field by field: a
  // wrong field fails the assertion, which is the check these rules would otherwise stand in for.
  // Every other rule, floating promises included, holds in tests as everywhere else.
  {
    files: ['tests/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // Plain JavaScript files (build and test runners, this file) are outside the TypeScript project.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },

  prettier,
);
