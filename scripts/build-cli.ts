/**
 * Builds the command-line tools to plain JavaScript (esbuild, one file each, dependencies
 * included), so they start with `node` alone: no npm, no tsx, no TypeScript at run time.
 * dist/cli/validate.mjs is `npm run validate`.
 */
import { build } from 'esbuild';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');

export async function buildCli(outDir = join(root, 'dist', 'cli')): Promise<string> {
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

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`build-cli: ${await buildCli()}`);
}
