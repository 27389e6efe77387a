// @ts-check
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Feature folders under src/features (bulletproof-react's one-way imports). */
const features = ['batch', 'requisitions', 'candidates', 'settings'];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-expect-error': 'allow-with-description' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/features/**/*.{ts,tsx}', 'src/shared/**/*.{ts,tsx}'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/features/**/*.{ts,tsx}', 'src/shared/**/*.{ts,tsx}'],
    rules: {
      // A scrollable region (wide table, JSON) must be reachable by keyboard to be scrolled:
      // role="region" + aria-label + tabIndex={0}, as WCAG 2.1.1 and axe's
      // scrollable-region-focusable rule ask.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'] }],
    },
  },
  {
    // Imports flow one way, shared → features → app (style.md, after bulletproof-react):
    // shared code imports no feature or app code, and a feature imports no other feature;
    // the app composes them.
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|app)(/|$)',
              message: 'src/shared must not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${features.filter((other) => other !== feature).join('|')}|app)(/|$)`,
              message:
                'A feature imports only src/shared, src/domain and itself; the app composes features.',
            },
          ],
        },
      ],
    },
  })),
  reactHooks.configs.flat['recommended-latest'] ?? reactHooks.configs['recommended-latest'],
  ...pluginQuery.configs['flat/recommended'],
  {
    // The domain runs in the browser, in Node and in a web worker: no React, no Node APIs.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'http', 'os'],
              message: 'src/domain must not use Node APIs.',
            },
            {
              group: ['react', 'react-*', '@tanstack/*'],
              message: 'src/domain must not use React.',
            },
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures: `use` is Playwright's, not React's, and `{}` is how a fixture says
    // it needs no other fixture.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off', 'no-empty-pattern': 'off' },
  },
  prettier,
);
