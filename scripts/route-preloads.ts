/**
 * Writes dist/route-preloads.json after `vite build`: for each page of src/app/route-table.ts, the
 * chunks (and style sheets) it needs beyond what index.html already loads. The portal server puts
 * them in index.html as `<link rel="modulepreload">` for the URL asked for, so a page's code
 * downloads together with the entry instead of after the entry has run (a cold start).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homePath, notFoundModule, routeModuleSource, routeTable } from '@/app/route-table';
import type { RoutePreloads } from '@/server/spa/route-preloads';
import { entryKeys, readManifest, staticClosure } from './vite-manifest';

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = readManifest(dist, 'route-preloads');
const loadedByIndex = staticClosure(manifest, entryKeys(manifest));

function preloadsOf(module: string) {
  const source = routeModuleSource(module);
  if (!manifest[source]) {
    console.error(
      `route-preloads: the build has no chunk for ${source} (named in route-table.ts).`,
    );
    process.exit(1);
  }
  const { scripts, styles } = staticClosure(manifest, [source]);
  return {
    scripts: scripts.filter((file) => !loadedByIndex.scripts.includes(file)),
    styles: styles.filter((file) => !loadedByIndex.styles.includes(file)),
  };
}

const home = routeTable.find((route) => route.path === homePath);
const preloads: RoutePreloads = {
  routes: [
    ...(home ? [{ path: '/', ...preloadsOf(home.module) }] : []),
    ...routeTable.map((route) => ({ path: route.path, ...preloadsOf(route.module) })),
  ],
  notFound: preloadsOf(notFoundModule),
};
writeFileSync(join(dist, 'route-preloads.json'), JSON.stringify(preloads, null, 2));
console.log(
  `route-preloads: ${preloads.routes.length} paths, ${preloads.routes.reduce((n, r) => n + r.scripts.length, 0)} chunk links`,
);
