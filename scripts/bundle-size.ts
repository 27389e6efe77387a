/**
 * The initial JavaScript of the production build, gzipped: the entry chunk plus every chunk it
 * imports statically (what the browser must fetch before the first page can render; routes
 * loaded on demand are not counted). The budget is 150 KB; above it this fails.
 * Run after `vite build` (npm run build does both). Also prints each lazy chunk for reference.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { entryKeys, readManifest, staticClosure } from './vite-manifest';

const budgetKb = 150;
const dist = join(import.meta.dirname, '..', 'dist');
const manifest = readManifest(dist, 'bundle-size');

const gzipKb = (file: string) =>
  gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;

const entries = entryKeys(manifest);
if (entries.length === 0) {
  console.error('bundle-size: the manifest has no entry chunk.');
  process.exit(1);
}
const { scripts, styles } = staticClosure(manifest, entries);
const initial = new Set(scripts);
const css = new Set(styles);

const jsKb = [...initial].reduce((sum, file) => sum + gzipKb(file), 0);
const cssKb = [...css].reduce((sum, file) => sum + gzipKb(file), 0);

console.log('Initial load (gzipped):');
for (const file of initial) console.log(`  ${file}  ${gzipKb(file).toFixed(1)} KB`);
for (const file of css) console.log(`  ${file}  ${gzipKb(file).toFixed(1)} KB`);
console.log(
  `Initial JavaScript: ${jsKb.toFixed(1)} KB gzipped (budget ${budgetKb} KB); CSS ${cssKb.toFixed(1)} KB`,
);

const lazy = Object.values(manifest).filter(
  (chunk) => chunk.isDynamicEntry && !initial.has(chunk.file),
);
if (lazy.length > 0) {
  console.log('Loaded on demand (gzipped):');
  for (const chunk of lazy) console.log(`  ${chunk.file}  ${gzipKb(chunk.file).toFixed(1)} KB`);
}

if (jsKb > budgetKb) {
  console.error(
    `bundle-size: the initial JavaScript is ${jsKb.toFixed(1)} KB gzipped, over the ${budgetKb} KB budget. Move code behind a lazy route (React.lazy) or drop a dependency.`,
  );
  process.exit(1);
}
