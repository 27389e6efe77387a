/**
 * Validator benchmark: `node build/cli/validate.mjs` on 10,000 requisitions against
 * ajv on an equivalent JSON Schema (bench/ajv-validate.mjs), both plain `node` processes reading
 * the same file and printing a report of the same shape; wall time, medians of interleaved
 * rounds. The JSON Schema is written from the catalog: each field's type (integers, decimals with
 * their places, dates, Y/N flags, option lists, e-mail), the always-required keys, and the
 * Insert-required ones when `requesttype` is I. (The portal's cross-field rules, such as date
 * order, have no JSON Schema equivalent; the validator checks them on top.) Budget: ≤ 1.2 ×.
 * Each tool's peak memory (maxRSS) is printed beside its time, without a budget.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requisitionCatalog } from '@/domain/requisition-catalog';
import { requisitionInsert } from '@/test-support/test-data';
import { formatTable } from './measure';

const ITEMS = 10_000;
const ROUNDS = 5;
const BUDGET = 1.2;
const root = join(import.meta.dirname, '..');

function fieldSchema(field: (typeof requisitionCatalog)[number]): Record<string, unknown> {
  if (field.options) return { type: 'string', enum: ['', ...field.options.map((o) => o.value)] };
  switch (field.type) {
    case 'INTEGER':
      return { type: 'string', pattern: '^(\\d+)?$' };
    case 'DECIMAL':
      return { type: 'string', pattern: `^(\\d+(\\.\\d{1,${field.maxDecimals ?? 2}})?)?$` };
    case 'DATE':
      return { type: 'string', pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' };
    case 'FLAG':
      return { type: 'string', enum: ['', 'Y', 'N'] };
    case 'STRING':
      return field.format === 'email'
        ? { type: 'string', pattern: '^([^@\\s]+@[^@\\s]+\\.[^@\\s]+)?$' }
        : { type: 'string' };
  }
}

export function requisitionJsonSchema(): Record<string, unknown> {
  const nonBlank = (keys: string[]) =>
    Object.fromEntries(keys.map((key) => [key, { type: 'string', minLength: 1 }]));
  const always = requisitionCatalog
    .filter((f) => f.requirement === 'insert-amend')
    .map((f) => f.key);
  const forInsert = requisitionCatalog.filter((f) => f.requirement === 'insert').map((f) => f.key);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(requisitionCatalog.map((f) => [f.key, fieldSchema(f)])),
    required: always,
    allOf: [
      { properties: nonBlank(always) },
      {
        if: { properties: { requesttype: { const: 'I' } } },
        then: { required: forInsert, properties: nonBlank(forInsert) },
      },
    ],
  };
}

const run = (command: string, args: string[]) => {
  const start = performance.now();
  const result = spawnSync(command, args, { maxBuffer: 1 << 30, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 300)}`);
  return { ms, stderr: result.stderr };
};
const wallMs = (command: string, args: string[]) => run(command, args).ms;

// Peak memory (resident set, MB) is read in runs of its own, by a hook the child loads that
// prints process.resourceUsage().maxRSS as it exits, so that the timed runs stay plain `node`.
const MEMORY_ROUNDS = 3;
const maxRssHook = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write(`\\nmaxRSS ${process.resourceUsage().maxRSS}\\n`));",
)}`;
const peakMb = (command: string, args: string[]) => {
  const { stderr } = run(command, ['--import', maxRssHook, ...args]);
  const kb = /maxRSS (\d+)/.exec(stderr)?.[1];
  if (kb === undefined)
    throw new Error(`no maxRSS from ${args.join(' ')}: ${stderr.slice(0, 300)}`);
  return Number(kb) / 1024;
};

export async function runValidatorBench(): Promise<{ withinBudget: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-validator-'));
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build-cli.ts')], {
      cwd: root,
      stdio: 'ignore',
    });
    const file = join(dir, 'requisitions.json');
    const schema = join(dir, 'schema.json');
    writeFileSync(
      file,
      JSON.stringify(
        Array.from({ length: ITEMS }, (_, i) => requisitionInsert({ clientinternalreq: `V-${i}` })),
      ),
    );
    writeFileSync(schema, JSON.stringify(requisitionJsonSchema()));
    const oursArgs = [join(root, 'build', 'cli', 'validate.mjs'), '--kind', 'requisition', file];
    const ajvArgs = [join(root, 'bench', 'ajv-validate.mjs'), schema, file];
    const ours: number[] = [];
    const ajv: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      ours.push(wallMs(process.execPath, oursArgs));
      ajv.push(wallMs(process.execPath, ajvArgs));
    }
    const oursMb: number[] = [];
    const ajvMb: number[] = [];
    for (let round = 0; round < MEMORY_ROUNDS; round += 1) {
      oursMb.push(peakMb(process.execPath, oursArgs));
      ajvMb.push(peakMb(process.execPath, ajvArgs));
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    const ratio = median(ours) / median(ajv);
    const withinBudget = ratio <= BUDGET;
    console.log(
      `\nValidator: ${ITEMS.toLocaleString('en-US')} requisitions, plain node, wall time (ms), ${ROUNDS} interleaved rounds; peak memory (MB), ${MEMORY_ROUNDS} rounds`,
    );
    console.log(
      formatTable([
        {
          tool: 'node build/cli/validate.mjs',
          median: median(ours).toFixed(0),
          runs: ours.map((ms) => ms.toFixed(0)).join(' '),
          'peak MB': median(oursMb).toFixed(0),
        },
        {
          tool: 'ajv, equivalent JSON Schema',
          median: median(ajv).toFixed(0),
          runs: ajv.map((ms) => ms.toFixed(0)).join(' '),
          'peak MB': median(ajvMb).toFixed(0),
        },
      ]),
    );
    console.log(
      `Ratio ${ratio.toFixed(2)} (budget ≤ ${BUDGET}) → ${withinBudget ? 'met' : 'MISSED'}; memory ${(median(oursMb) / median(ajvMb)).toFixed(2)} × ajv's`,
    );
    return { withinBudget };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runValidatorBench();
  if (!result.withinBudget) process.exitCode = 1;
}
