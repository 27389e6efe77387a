/**
 * Builds the Node programs to plain JavaScript with esbuild, so they start with `node` alone: no
 * tsx, no TypeScript at run time.
 * - build/cli/validate.mjs (`npm run validate`): one file, dependencies included;
 * - build/server/main.mjs (`npm start`): the portal server and the embedded sandbox, our code in
 *   one file, its packages (Fastify, better-sqlite3's native module…) loaded from node_modules.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

export async function buildCli(outDir = join(root, 'build', 'cli')): Promise<string> {
  const outfile = join(outDir, 'validate.mjs');
  await build({
    entryPoints: [join(root, 'src', 'cli', 'validate.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Smaller to parse at start-up; the source map keeps stack traces readable.
    minify: true,
    sourcemap: true,
    // Bundled CommonJS code may still call require().
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

export async function buildServer(outDir = join(root, 'build', 'server')): Promise<string> {
  const outfile = join(outDir, 'main.mjs');
  await build({
    entryPoints: [join(root, 'src', 'server', 'main.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: true,
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`build-cli: ${await buildCli()}`);
  console.log(`build-cli: ${await buildServer()}`);
}
