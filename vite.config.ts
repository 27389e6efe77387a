import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/** V8's explicit compile hint (Chrome 136+): compile every function of this file eagerly. */
const compileHint = '//# allFunctionsCalledOnLoad';

/**
 * Marks the chunks a page runs as it starts (the entry, and the chunks named in `names`) with
 * V8's explicit compile hint, as their first line. Without it V8 compiles each function on the
 * main thread the first time it is called: on the requisition form page that was ~165 ms of a
 * ~300 ms first render at a 4x CPU throttle (Chromium trace, V8.CompileCode). With it the
 * functions are compiled as the file streams in, on a background thread. Browsers without the
 * feature read a comment. The source maps are shifted by the line added.
 */
function compileHints(names: readonly string[]): Plugin {
  return {
    name: 'portal:compile-hints',
    apply: 'build',
    enforce: 'post',
    // After Vite's own generateBundle, which puts its preload map at the top of the entry.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !(chunk.isEntry || names.includes(chunk.name))) continue;
          chunk.code = `${compileHint}\n${chunk.code}`;
          if (chunk.map) chunk.map.mappings = `;${chunk.map.mappings}`;
          const mapAsset = bundle[`${chunk.fileName}.map`];
          if (mapAsset?.type === 'asset' && typeof mapAsset.source === 'string') {
            const map = JSON.parse(mapAsset.source) as { mappings: string };
            map.mappings = `;${map.mappings}`;
            mapAsset.source = JSON.stringify(map);
          }
        }
      },
    },
  };
}

/**
 * The server tests that run a second time on PostgreSQL: every test of the portal's behaviour
 * over HTTP. Left out: tests of the SQLite file itself (vms-proxy-journal-failures.test.ts fills
 * its disk) and of parts that keep nothing. The store tests run both databases themselves.
 */
const postgresSuite = [
  'src/server/accounts/*.test.ts',
  'src/server/app.test.ts',
  'src/server/proxy/vms-proxy.test.ts',
  'src/server/proxy/vms-proxy-idempotency.test.ts',
  'src/server/proxy/vms-proxy-journal.test.ts',
  'src/server/proxy/vms-proxy-lost-answers.test.ts',
  'src/server/ops/drain.test.ts',
  'src/server/ops/health-probes.test.ts',
  'src/server/journal/journal-routes.test.ts',
  'src/server/journal/curl.test.ts',
  'src/server/journal/journal-personal-data.test.ts',
  'src/server/cli/users.test.ts',
  'src/server/metrics/metrics.test.ts',
  'src/server/deliveries/deliveries.test.ts',
  'src/server/deliveries/deliveries-restart.test.ts',
  'src/server/audit/audit-api.test.ts',
  'src/server/watch/batch-watch.test.ts',
  'src/server/watch/watch-access.test.ts',
  'src/server/watch/watch-long-poll.test.ts',
  'src/server/notifications/notifications.test.ts',
  'src/server/api-tokens/api-tokens-api.test.ts',
  'src/server/suites/suite-api.test.ts',
  'src/server/suites/suite-schedules.test.ts',
  'src/server/privacy/privacy-api.test.ts',
];

/** Modules of the requisition workspace's first render, one chunk (build.rolldownOptions below). */
const workspaceModule =
  /[\\/]src[\\/](domain|shared|core[\\/]batch|features[\\/]requisitions)[\\/]|[\\/]node_modules[\\/](react-hook-form|@hookform|@tanstack[\\/](react-virtual|virtual-core))[\\/]/;

export default defineConfig(({ command }) => ({
  // The chunks every page load runs get V8's eager-compile hint (compileHints above).
  plugins: [react(), compileHints(['workspace', 'zod'])],
  resolve: {
    // @/ is src/, as tsconfig.json's paths say.
    tsconfigPaths: true,
    // React Router 7's package exports point only at its development build, whose warnings are
    // always on (remix-run/react-router#14102, open); its production build sits beside it. The
    // build takes that one; the dev server and the tests keep the development one and its warnings.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                import.meta
                  .resolve('react-router')
                  .replace('/dist/development/', '/dist/production/'),
              ),
            },
          ]
        : [],
  },
  // Workers as ES modules, so a worker's code can load in steps: the list's worker asks for a
  // first visit's list before the rest of its code (zod's schemas above all) has loaded
  // (src/shared/requisitions/sync.worker.ts).
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // dist/.vite/manifest.json: scripts/bundle-size.ts reads the entry chunk and its static
    // imports from it to measure what the first page load costs.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // zod with the module that configures it (jitless: the CSP forbids eval), so the
            // setting is in force before any other chunk builds a schema: a zod object built
            // earlier probes `new Function` and the browser reports a CSP violation.
            {
              name: 'zod',
              test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]shared[\\/]lib[\\/]zod-config\.ts$/,
              priority: 3,
            },
            // Everything the entry needs in one chunk beside it (React, the router, TanStack
            // Query, the JSX runtime), not four: browsers fetch at most six files at a time from
            // one HTTP/1.1 origin, so each small chunk pushed a page's own code a round trip later.
            { name: 'app', tags: ['$initial'], priority: 2 },
            // What the requisition workspace draws first (form, tray, domain) in one chunk rather
            // than seventeen, for the same reason (the form's largest contentful paint); other pages add their own.
            // The JSON editor and the raw JSON view (CodeMirror, Lezer) stay apart: they load
            // when opened.
            {
              name: 'workspace',
              test: (id) =>
                workspaceModule.test(id) && !/[\\/](json-editor|raw-json)\.tsx?$/.test(id),
              priority: 1,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'node',
    // Component tests opt into a DOM with a `// @vitest-environment jsdom` docblock.
    restoreMocks: true,
    // A timeout only catches a hung test. jsdom form tests that type a whole form take 2–5 s
    // when the 2 cores are busy, so the 5 s default failed healthy tests under load.
    testTimeout: 20_000,
    // One real PostgreSQL server for the run: the store tests and the postgres
    // project make their databases on it.
    globalSetup: ['src/test-support/postgres-global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        // The server's own suite again with every store in PostgreSQL (DATABASE_URL): the same
        // tests, each PORTAL_DB of theirs becoming a database (test-support/postgres-server.ts).
        extends: true,
        test: {
          name: 'postgres',
          include: postgresSuite,
          env: { PORTAL_TEST_STORE: 'postgres' },
        },
      },
    ],
  },
}));
