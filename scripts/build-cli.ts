/**
 * Builds the Node programs to plain JavaScript with esbuild, so they start with `node` alone: no
 * tsx, no TypeScript at run time.
 * - build/cli/validate.mjs (`npm run validate`): one file, dependencies included;
 * - build/server/main.mjs (`npm start`): the portal server and the embedded sandbox, our code in
 *   one file, its packages (Fastify, better-sqlite3's native module…) loaded from node_modules;
 * - build/cli/users.mjs, backup.mjs, restore.mjs, doctor.mjs: the operator's commands, the same way.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

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

/**
 * How the server and the operator's commands are built: our code bundled into one ES module for
 * Node, their packages left to be loaded from node_modules (a native module cannot be bundled).
 */
const withPackagesExternal = {
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  logLevel: 'warning',
} as const satisfies BuildOptions;

/**
 * What build/server/main.mjs is: a check of the Node version, then the portal. The portal's
 * packages are imported when its module loads, and on an old Node its SQLite driver crashes
 * there without a word; so the check runs in a module of its own first, and loads the portal
 * only when the Node will do.
 */
async function serverEntry(): Promise<string> {
  // The same check every npm command runs first, word for word: one source for the rule.
  const check = await readFile(join(root, 'scripts', 'check-node.mjs'), 'utf8');
  return `${check}\n// Built by scripts/build-cli.ts: the portal, once the Node will do.\nawait import('./portal.mjs');\n`;
}

export async function buildServer(outDir = join(root, 'build', 'server')): Promise<string> {
  const outfile = join(outDir, 'main.mjs');
  await build({
    entryPoints: [join(root, 'src', 'server', 'main.ts')],
    outfile: join(outDir, 'portal.mjs'),
    ...withPackagesExternal,
  });
  await writeFile(outfile, await serverEntry());
  return outfile;
}

/**
 * The operator's commands (`npm run users`, `backup`, `restore`, `privacy`, `doctor`, `suite`) as plain JavaScript,
 * their packages loaded from node_modules like the server's: a deployment installed with
 * `npm ci --omit=dev` runs them without tsx or TypeScript.
 */
const tools = {
  users: ['src', 'server', 'cli', 'users-main.ts'],
  backup: ['src', 'server', 'cli', 'backup-main.ts'],
  restore: ['src', 'server', 'cli', 'restore-main.ts'],
  privacy: ['src', 'server', 'privacy', 'privacy-main.ts'],
  doctor: ['src', 'cli', 'doctor.ts'],
  suite: ['src', 'cli', 'suite.ts'],
} as const;

export async function buildTools(outDir = join(root, 'build', 'cli')): Promise<string[]> {
  return Promise.all(
    Object.entries(tools).map(async ([name, source]) => {
      const outfile = join(outDir, `${name}.mjs`);
      await build({
        entryPoints: [join(root, ...source)],
        outfile,
        ...withPackagesExternal,
      });
      return outfile;
    }),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`build-cli: ${await buildCli()}`);
  console.log(`build-cli: ${await buildServer()}`);
  for (const tool of await buildTools()) console.log(`build-cli: ${tool}`);
}
