// @ts-check
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { fileURLToPath } from 'node:url';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import {
  foldersOf,
  serverConcernProblems,
  serverConcerns,
  sharedServerFiles,
} from './scripts/boundaries.mjs';
import tseslint from 'typescript-eslint';

/**
 * Layers: domain ← shared ← core ← features ← app in the browser;
 * the portal server and the sandbox beside them on Node, with src/node for what both need; the
 * server reaches the sandbox only through its public entry. Each area lists what it must not
 * import; tests may reach further (they prove the pieces together) but not into the app.
 */
const features = foldersOf('features');
const concernProblems = serverConcernProblems();
if (concernProblems.length > 0) throw new Error(concernProblems.join('\n'));
const areas = {
  domain: ['shared', 'core', 'features', 'app', 'node', 'server', 'sandbox', 'cli', 'test-support'],
  shared: ['core', 'features', 'app', 'node', 'server', 'sandbox', 'cli', 'test-support'],
  core: ['features', 'app', 'node', 'server', 'sandbox', 'cli', 'test-support'],
  app: ['node', 'server', 'sandbox', 'cli', 'test-support'],
  node: ['shared', 'core', 'features', 'app', 'server', 'sandbox', 'cli', 'test-support'],
  sandbox: ['shared', 'core', 'features', 'app', 'server', 'cli', 'test-support'],
  server: ['shared', 'core', 'features', 'app', 'cli', 'test-support'],
  cli: ['shared', 'core', 'features', 'app', 'server', 'sandbox', 'test-support'],
};
/**
 * The one way past a layer: `npm run doctor`'s connection check and profile draft run the
 * server's own settings and signing, and the command line reaches them only through their entries.
 */
const layerExceptions = {
  'cli:server': ['./doctor/check-command.ts', './doctor/draft-command.ts'],
};
const zone = (target, from, message, except) => ({
  target: `./src/${target}`,
  from: `./src/${from}`,
  ...(except ? { except } : {}),
  message,
});
const productionZones = [
  ...Object.entries(areas).flatMap(([area, forbidden]) =>
    forbidden.map((other) =>
      zone(
        area,
        other,
        `src/${area} must not import src/${other} (layers: docs/decisions/020-generic-batch-workspace.md).`,
        layerExceptions[`${area}:${other}`],
      ),
    ),
  ),
  // Each feature, by the folders there are when lint starts: no other feature folder imports it,
  // one made after it included (a glob, so a feature made later is an importer the day it exists).
  ...features.map((feature) => ({
    target: `./src/features/!(${feature})/**`,
    from: `./src/features/${feature}`,
    message: 'A feature imports only domain, shared, core and itself; the app composes features.',
  })),
  ...['app', 'node', 'server', 'sandbox', 'cli', 'test-support'].map((other) =>
    zone('features', other, `A feature must not import src/${other}.`),
  ),
  zone(
    'server',
    'sandbox',
    'The portal server reaches the sandbox only through its public entry, src/sandbox/index.ts.',
    ['./index.ts'],
  ),
];
/**
 * Each server concern imports only itself, the concerns scripts/boundaries.mjs lets it, and
 * config.ts; the files beside the concerns (app.ts, start.ts…) compose them. Production files
 * only: a concern's tests may set up the parts around it.
 */
const serverConcernZones = Object.entries(serverConcerns).map(([concern, allowed]) => ({
  target: `./src/server/${concern}`,
  from: './src/server',
  except: [concern, ...allowed, ...sharedServerFiles].map((path) => `./${path}`),
  message: `src/server/${concern} may import only ${allowed.length > 0 ? `${allowed.join(', ')} and ` : ''}config.ts of the server (scripts/boundaries.mjs; docs/architecture.md).`,
}));
const testZones = productionZones.filter(
  (z) =>
    z.from !== './src/test-support' &&
    !/\/(server|sandbox|node|cli|core|shared|features)$/.test(z.from),
);
/** Resolves imports as TypeScript does, @/ included (tsconfig.json's paths). */
const importSettings = {
  'import-x/resolver-next': [
    createNodeResolver({
      extensions: ['.ts', '.tsx', '.js'],
      tsconfig: { configFile: fileURLToPath(new URL('./tsconfig.json', import.meta.url)) },
    }),
  ],
  'import-x/internal-regex': '^@/',
};
const layerRules = [
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importSettings,
      // no-cycle reads the imported modules itself, so it needs to know how to parse them.
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...productionZones, ...serverConcernZones] },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/test-support/**/*.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: testZones }] },
  },
];

/**
 * How imports are written, so a file's imports read the same everywhere and a moved file changes
 * only the lines that name it: a module in another folder of src/ is named from the root, `@/…`
 * (never `../`); a module beside it, `./…`. Imports come in groups (Node, packages, `@/`, `./`),
 * alphabetical within each; `eslint --fix` puts them in order.
 */
const noParentImports = {
  // The build scripts and the e2e support files beside src/ are not under @/: the tests and
  // benchmarks that use them still name them with ../.
  regex: '^\\.\\./(?!(\\.\\./)*(scripts|e2e)/)',
  message: 'Name a module in another folder from the root of src: @/… instead of ../…',
};
const importStyle = [
  {
    files: ['src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: {
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noParentImports] }] },
  },
];

/**
 * A `//` or `/*` line among JSX children is text the user reads, not a comment: a results panel
 * showed one (eslint-plugin-react's jsx-no-comment-textnodes, by a core rule's selector).
 */
const jsxCommentText = {
  selector: 'JSXText[value=/(^|\\n)\\s*\\/[\\/*]/]',
  message: 'This comment is inside JSX, so the page shows it as text: write {/* … */}.',
};

/**
 * The core serves every payload kind with one implementation: what differs between requisitions
 * and candidates is a field of their descriptor (src/domain/payload-kind.ts), never a comparison
 * with a kind's name. The names are payloadKinds' (src/layers.test.ts checks each one is here).
 */
const kindName = '/^(requisition|candidate)$/';
const kindNameComparisons = [
  {
    selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal[value=${kindName}]`,
    message:
      "The core never asks which payload kind it has: read a field of the kind's descriptor (src/domain/payload-kind.ts), adding one if needed.",
  },
  {
    selector: `SwitchCase > Literal.test[value=${kindName}]`,
    message:
      "The core never asks which payload kind it has: read a field of the kind's descriptor (src/domain/payload-kind.ts), adding one if needed.",
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'build',
      'node_modules',
      'data',
      'test-results',
      'playwright-report',
      'coverage',
    ],
  },
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
    files: [
      'src/app/**/*.{ts,tsx}',
      'src/core/**/*.{ts,tsx}',
      'src/features/**/*.{ts,tsx}',
      'src/shared/**/*.{ts,tsx}',
    ],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: [
      'src/app/**/*.{ts,tsx}',
      'src/core/**/*.{ts,tsx}',
      'src/features/**/*.{ts,tsx}',
      'src/shared/**/*.{ts,tsx}',
    ],
    rules: {
      // A scrollable region (wide table, JSON) must be reachable by keyboard to be scrolled:
      // role="region" + aria-label + tabIndex={0}, as WCAG 2.1.1 and axe's
      // scrollable-region-focusable rule ask.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { roles: ['tabpanel', 'region'] }],
      'no-restricted-syntax': ['error', jsxCommentText],
    },
  },
  {
    files: ['src/core/**/*.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', jsxCommentText, ...kindNameComparisons] },
  },
  ...layerRules,
  ...importStyle,
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
            noParentImports,
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
    // Settings are read in one place, the process's entry, and passed down as a checked config
    // (src/server/config.ts): a setting read deep in the code is undocumented, unchecked, and
    // can change what the proxy does without anyone seeing it (a debugging switch once skipped
    // the proxy's checks and signing while it was set).
    files: ['src/**/*.{ts,tsx}'],
    ignores: [
      '**/*.test.{ts,tsx}',
      'src/test-support/**',
      'src/**/main.ts',
      'src/**/*-main.ts',
      'src/server/launch.ts',
      'src/cli/*.ts',
    ],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Read settings in the entry (main, launch, a CLI) and pass them down through the checked config.',
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
  {
    // A journey acts on the app's page, not on the prerendered one the app is about to replace:
    // Playwright's `fill` focuses a field and sends its text in two steps, and a field replaced
    // between them loses the text. The fixtures' pages wait for the app (startOnTakenOverPages);
    // a journey takes its `test` from them and opens further pages with `openPage`.
    files: ['e2e/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [noParentImports],
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test'],
              message:
                "Take test (or journeyTest) from ./support/fixtures: its pages start on the app's page.",
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='newPage']",
          message:
            "Open a page with openPage(context) from ./support/fixtures: it starts on the app's page.",
        },
      ],
    },
  },
  {
    // The journeys of the prerendered page itself: they act before the app takes over, on purpose.
    files: ['e2e/first-paint.spec.ts', 'e2e/takeover.spec.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  prettier,
);
