/**
 * Renders docs/fields.md from the field catalogs, so the documented rules are the rules checked:
 * written once, in the catalog. `npm run docs:fields` rewrites the file; a unit test fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FieldDef } from '@/domain';
import {
  candidateCatalog,
  describeOptions,
  describeRequirement,
  requisitionCatalog,
} from '@/domain';

function bounds(def: FieldDef): string {
  const parts: string[] = [];
  if (def.min !== undefined) parts.push(`≥ ${def.min}`);
  if (def.max !== undefined) parts.push(`≤ ${def.max}`);
  if (def.maxDecimals !== undefined) parts.push(`≤ ${def.maxDecimals} decimals`);
  if (def.format === 'email') parts.push('e-mail address');
  return parts.join(', ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** Repeated items (skill 2–10…) are summarised by their first item to keep the table readable. */
function table(catalog: ReadonlyArray<FieldDef>, repeated: string): string {
  const rows = catalog
    .filter((def) => def.row === undefined || def.row.n === 1)
    .map((def) => {
      const name = def.row ? `${def.key.replace(/1(?=\D*$)/, '<n>')}` : def.key;
      const allowed = def.options ? describeOptions(def) : '';
      return `| \`${cell(name)}\` | ${cell(def.label.replace(/ 1\b/, ' n'))} | ${def.type} | ${describeRequirement(def.requirement)} | ${cell(allowed)} | ${cell(bounds(def))} | ${def.section} |`;
    });
  return [
    '| wire key | label | type | required | allowed values | bounds | form section |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    repeated,
  ].join('\n');
}

export function renderFieldDocs(): string {
  return `# Payload fields

Generated from the field catalogs in \`src/domain\` by \`npm run docs:fields\`; do not edit by
hand (a unit test fails when this file and the catalogs disagree). Every value travels as a JSON
string; \`""\` is blank. Rules that involve several fields are in
[decisions/000-payload-rules.md](decisions/000-payload-rules.md).

## Requisition (${requisitionCatalog.length} keys)

${table(requisitionCatalog, '`<n>` is 1–10 for skills and custom fields, 1–5 for questions. `skill<n>` and `question<n>` are the sequence numbers, derived from row order.')}

## Candidate (${candidateCatalog.length} keys)

${table(candidateCatalog, '`<n>` is 1–5 for answers and custom fields, 1–10 for skill responses.')}
`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(new URL('../../docs/fields.md', import.meta.url), renderFieldDocs());
  console.log('wrote docs/fields.md');
}
