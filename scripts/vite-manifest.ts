/** Vite's build manifest (dist/.vite/manifest.json), read by the post-build scripts. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const manifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    isEntry: z.boolean().optional(),
    isDynamicEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
    css: z.array(z.string()).optional(),
    assets: z.array(z.string()).optional(),
  }),
);
export type Manifest = z.infer<typeof manifestSchema>;

/** The manifest of the build in `dist`; exits with a clear message when there is none. */
export function readManifest(dist: string, script: string): Manifest {
  try {
    return manifestSchema.parse(
      JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')),
    );
  } catch {
    console.error(`${script}: dist/.vite/manifest.json is missing; run "vite build" first.`);
    process.exit(1);
  }
}

/** The manifest keys of the entry chunks (index.html's scripts). */
export function entryKeys(manifest: Manifest): string[] {
  return Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry)
    .map(([key]) => key);
}

/**
 * What loading the chunks `keys` costs before they can run: their files and every chunk they
 * import statically, and the style sheets of all of them (paths relative to dist, in load order).
 */
export function staticClosure(
  manifest: Manifest,
  keys: readonly string[],
): { scripts: string[]; styles: string[] } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const sheet of chunk.css ?? []) styles.add(sheet);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return { scripts: [...scripts], styles: [...styles] };
}
