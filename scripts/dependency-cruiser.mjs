// @ts-check
import { serverConcerns, sharedServerFiles } from './boundaries.mjs';

/**
 * The server's import graph, type-only imports included (ESLint's import-x/no-cycle skips them,
 * and a circle of types still ties the concerns together): no circle anywhere in src/server, and
 * no import from one concern to another that scripts/boundaries.mjs does not declare. `npm run
 * lint` runs it after ESLint.
 */
const concerns = Object.keys(serverConcerns);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports in the server, type-only ones included.',
      from: { path: '^src/server/' },
      to: { circular: true },
    },
    ...Object.entries(serverConcerns).map(([concern, allowed]) => ({
      name: `undeclared-from-${concern}`,
      severity: /** @type {const} */ ('error'),
      comment: `src/server/${concern} may import only ${allowed.join(', ') || 'no other concern'} (scripts/boundaries.mjs).`,
      from: { path: `^src/server/${escape(concern)}/`, pathNot: '\\.test\\.ts$' },
      to: {
        path: '^src/server/',
        pathNot: [concern, ...allowed, ...sharedServerFiles].map(
          (name) => `^src/server/${escape(name)}(/|$)`,
        ),
      },
    })),
    {
      name: 'unknown-concern',
      severity: 'error',
      comment: 'A folder of src/server that scripts/boundaries.mjs does not list.',
      from: {
        path: '^src/server/[^/]+/',
        pathNot: `^src/server/(${concerns.map(escape).join('|')})/`,
      },
      to: {},
    },
  ],
  options: {
    // Type-only imports count: they are what import-x/no-cycle cannot see.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.d\\.ts$' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
