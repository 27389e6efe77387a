/**
 * After `vite build`: writes dist/shells.json, every page of src/app/route-table.ts prerendered
 * with React's static renderer in each of the shells the server may send (src/domain/page-shell.ts),
 * so a page paints from its HTML before any script has run; the app hydrates it (decision 040).
 * And makes dist/index.html start the app after that first paint rather than before it: its
 * entry script and Vite's preloads give way to the page's inline script (startScript), which
 * preloads and imports them once the page has been drawn.
 * src/app/prerender.tsx is built for Node by Vite with the app's own settings (the same modules,
 * aliases and production React as the browser's build), run once, and thrown away.
 * `--to <file>`: the shells only, to that file (src/app/hydration.test.tsx hydrates them).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import type * as Prerender from '@/app/prerender';

const root = join(import.meta.dirname, '..');
const toAt = process.argv.indexOf('--to');
const shellsOnlyTo = toAt >= 0 ? process.argv[toAt + 1] : undefined;
// Inside the project, so that the packages it leaves out (react, react-router…) resolve.
const outDir = join(root, 'build', `prerender-${process.pid}`);
try {
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'warn',
    build: {
      ssr: join(root, 'src/app/prerender.tsx'),
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      manifest: false,
      // The browser build's chunk groups are for the browser's downloads; here one file will do.
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  const entry = readdirSync(outDir).find((name) => /^prerender\.m?js$/.test(name));
  if (!entry) throw new Error(`the Node build of src/app/prerender.tsx is not in ${outDir}`);
  const { prerenderShells, startScript } = (await import(
    pathToFileURL(join(outDir, entry)).href
  )) as typeof Prerender;
  const shells = await prerenderShells();
  writeFileSync(shellsOnlyTo ?? join(root, 'dist', 'shells.json'), JSON.stringify(shells));

  if (shellsOnlyTo === undefined) {
    const indexPath = join(root, 'dist', 'index.html');
    const index = readFileSync(indexPath, 'utf8');
    const moduleScript = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(
      index,
    );
    if (!moduleScript?.[1] || !index.includes('</body>')) {
      throw new Error('dist/index.html is not as Vite writes it (one module script, a body)');
    }
    // Vite's preloads of the entry's own imports: the start script makes them, after the paint.
    const preloads = [
      ...index.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g),
    ];
    let page = index.replace(moduleScript[0], '');
    for (const [link] of preloads) page = page.replace(link, '');
    const script = startScript(
      moduleScript[1],
      preloads.map(([, href]) => href ?? ''),
    );
    writeFileSync(
      indexPath,
      page.replace('</body>', () => `  <script>${script}</script>\n  </body>`),
    );
  }
  const pages = shells.routes.length + 1;
  console.log(
    `prerender-shells: ${pages} pages × ${Object.keys(shells.notFound).length} shells, ${(JSON.stringify(shells).length / 1024).toFixed(0)} KB`,
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
// The app's modules keep open what a page keeps open (the lists' BroadcastChannel), which would
// keep Node running: the work is done once the file is written.
process.exit(process.exitCode ?? 0);
