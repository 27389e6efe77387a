// The validator benchmark's peer: ajv checking a requisition file against an
// equivalent JSON Schema (bench/validator.ts writes it from the catalog), with a report of the
// same shape as `npm run validate`. Plain node, as the built validator runs.
// usage: node bench/ajv-validate.mjs SCHEMA.json FILE.json
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';

const [schemaPath, file] = process.argv.slice(2);
const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const items = JSON.parse(readFileSync(file, 'utf8'));
const check = new Ajv({ allErrors: true }).compile(schema);
const reports = items.map((item, index) => {
  const valid = check(item);
  return {
    index,
    valid,
    errors: valid
      ? []
      : (check.errors ?? []).map((error) => ({
          field: error.instancePath.slice(1) || String(error.params.missingProperty ?? ''),
          message: error.message ?? 'invalid',
        })),
  };
});
process.stdout.write(
  `${JSON.stringify({ valid: reports.every((report) => report.valid), items: reports }, null, 2)}\n`,
);
process.exitCode = reports.every((report) => report.valid) ? 0 : 1;
