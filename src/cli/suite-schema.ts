/**
 * Writes docs/suite.schema.json, the JSON Schema of a QA suite file, from the Zod schema a run
 * reads the file with, so an editor completes and checks a suite by the runner's own rules.
 * `npm run docs:suite-schema` rewrites it; a unit test fails when it is stale.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { suiteJsonSchema } from '@/domain/suite-cases';

export function renderSuiteSchema(): string {
  return `${JSON.stringify(suiteJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(new URL('../../docs/suite.schema.json', import.meta.url), renderSuiteSchema());
  console.log('wrote docs/suite.schema.json');
}
