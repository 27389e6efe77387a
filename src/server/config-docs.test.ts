import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sandboxEnvSchema } from '@/sandbox/index';
import { portalEnvSchema } from './config';

// The settings tables in the README and docs/ are checked against the
// configuration schemas, so a setting cannot be added, renamed or given a new default without
// the docs saying so.

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const readme = read('README.md');
const configurationDoc = read('docs/configuration.md');
const sandboxDoc = read('docs/sandbox.md');

/** The table row that documents `name` (its first cell names it). */
function rowOf(doc: string, name: string): string | undefined {
  return doc
    .split('\n')
    .find((line) => line.startsWith('|') && (line.split('|')[1] ?? '').includes(`\`${name}\``));
}

/** Each setting with the value it takes when unset, as the schema itself gives it. */
function defaults(schema: typeof portalEnvSchema | typeof sandboxEnvSchema) {
  const unset: Record<string, unknown> = schema.parse({});
  return Object.keys(schema.shape).map((name) => ({ name, value: unset[name] }));
}

describe('the settings tables', () => {
  it.each(defaults(portalEnvSchema))(
    'README and configuration.md document $name',
    ({ name, value }) => {
      for (const doc of [readme, configurationDoc]) {
        const row = rowOf(doc, name);
        expect(row, name).toBeDefined();
        if (typeof value === 'number' || typeof value === 'string') {
          expect(row).toContain(`\`${String(value)}\``);
        }
      }
    },
  );

  it.each(defaults(sandboxEnvSchema))('sandbox.md documents $name', ({ name, value }) => {
    const row = rowOf(sandboxDoc, name);
    expect(row, name).toBeDefined();
    if (typeof value === 'number' || typeof value === 'string') {
      expect(row).toContain(`\`${String(value)}\``);
    }
  });

  it('documents no setting that does not exist', () => {
    const known = new Set([
      ...Object.keys(portalEnvSchema.shape),
      ...Object.keys(sandboxEnvSchema.shape),
    ]);
    // Rows whose first cell is an environment variable (other tables start with methods, codes).
    const documented = [...configurationDoc.matchAll(/^\| `([A-Z]+_[A-Z0-9_]+|PORT|HOST)`/gm)].map(
      (match) => match[1],
    );
    expect(documented.filter((name) => name !== undefined && !known.has(name))).toEqual([]);
  });
});
