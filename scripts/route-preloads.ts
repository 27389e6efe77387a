/**
 * Writes dist/route-preloads.json after `vite build`: for each page of src/app/route-table.ts, the
 * chunks (and style sheets) it needs beyond what index.html already loads. The portal server lists
 * them in index.html for the URL asked for (the page's start script preloads them as it imports
 * the entry), so a page's code downloads together with the entry instead of after the entry has
 * run (a cold start); and the
 * worker the page starts at once (`<link rel="prefetch" data-worker>`, which the page's start
 * script starts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteEntry } from '@/app/route-table';
import { homePath, notFoundModule, routeModuleSource, routeTable } from '@/app/route-table';
import type { RoutePreloads } from '@/server/spa/route-preloads';
import { entryKeys, readManifest, staticClosure } from './vite-manifest';

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = readManifest(dist, 'route-preloads');
const loadedByIndex = staticClosure(manifest, entryKeys(manifest));

/** The built file of a worker (Vite lists it among its importer's assets, as name-hash.js). */
function workerFile(source: string): string {
  const name = (source.split('/').pop() ?? source).replace(/\.ts$/, '');
  const file = Object.values(manifest)
    .flatMap((chunk) => chunk.assets ?? [])
    .find((asset) => new RegExp(`(^|/)${name.replace(/\./g, '\\.')}-[\\w-]+\\.js$`).test(asset));
  if (!file) {
    console.error(`route-preloads: the build has no worker file for ${source} (route-table.ts).`);
    process.exit(1);
  }
  return file;
}

function routePreloads(route: Pick<RouteEntry, 'module' | 'worker'>) {
  return {
    ...preloadsOf(route.module),
    workers: route.worker
      ? [
          {
            name: route.worker.name,
            file: workerFile(route.worker.source),
            storage: [...route.worker.storage],
          },
        ]
      : [],
  };
}

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
    ...(home ? [{ path: '/', ...routePreloads(home) }] : []),
    ...routeTable.map((route) => ({ path: route.path, ...routePreloads(route) })),
  ],
  notFound: routePreloads({ module: notFoundModule }),
};
writeFileSync(join(dist, 'route-preloads.json'), JSON.stringify(preloads, null, 2));
console.log(
  `route-preloads: ${preloads.routes.length} paths, ${preloads.routes.reduce((n, r) => n + r.scripts.length, 0)} chunk links`,
);
