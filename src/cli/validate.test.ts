import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { candidateFormToWire, requisitionFormToWire, validateBatch } from '@/domain';
import {
  fullCandidateForm,
  fullRequisitionForm,
  validAmendWire,
  validCandidateWire,
  validRequisitionWire,
} from '@/test-support/test-data';
import { buildCli } from '../../scripts/build-cli';
import { main, run } from './validate';

/*
 * The offline validator: one JSON report on stdout, exit 0 when
 * every item is valid, 1 when any is invalid, 2 when the file cannot be checked (one line on
 * stderr, nothing on stdout).
 */
const dir = mkdtempSync(join(tmpdir(), 'validate-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function file(contents: string): string {
  fileCount += 1;
  const path = join(dir, `batch-${fileCount}.json`);
  writeFileSync(path, contents);
  return path;
}
const json = (value: unknown) => file(JSON.stringify(value));

/** The report's shape, as the README gives it. */
const reportSchema = z.strictObject({
  valid: z.boolean(),
  items: z.array(
    z.strictObject({
      index: z.number().int().nonnegative(),
      valid: z.boolean(),
      errors: z.array(z.strictObject({ field: z.string(), message: z.string().min(1) })),
    }),
  ),
});

function report(stdout: string) {
  return reportSchema.parse(JSON.parse(stdout));
}

function expectBroken(result: { code: number | null; stdout: string; stderr: string }) {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  const lines = result.stderr.split('\n');
  // Exactly one line, ending in a newline.
  expect(lines, JSON.stringify(result.stderr)).toHaveLength(2);
  expect(lines[1]).toBe('');
  expect(lines[0]?.trim()).not.toBe('');
  return lines[0] ?? '';
}

describe('a valid file', () => {
  it('exits 0 with a valid report listing every item, 0-based', () => {
    const path = json([
      validRequisitionWire(),
      validAmendWire(),
      requisitionFormToWire(fullRequisitionForm(1), 'YYYY-MM-DD'),
    ]);
    const result = run(['--kind', 'requisition', path]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(report(result.stdout)).toEqual({
      valid: true,
      items: [
        { index: 0, valid: true, errors: [] },
        { index: 1, valid: true, errors: [] },
        { index: 2, valid: true, errors: [] },
      ],
    });
  });

  it('checks candidates with --kind candidate', () => {
    const path = json([validCandidateWire(), candidateFormToWire(fullCandidateForm(2))]);
    const result = run(['--kind', 'candidate', path]);
    expect(result.code).toBe(0);
    expect(report(result.stdout).items.map((item) => item.valid)).toEqual([true, true]);
  });

  it('accepts a UTF-8 file that starts with a byte-order mark', () => {
    const result = run([
      '--kind',
      'candidate',
      file(`\uFEFF${JSON.stringify([validCandidateWire()])}`),
    ]);
    expect(result.code).toBe(0);
    expect(report(result.stdout).valid).toBe(true);
  });

  it('prints exactly one JSON document on stdout', () => {
    const result = run(['--kind', 'candidate', json([validCandidateWire()])]);
    expect(() => JSON.parse(result.stdout) as unknown).not.toThrow();
    expect(result.stdout.endsWith('\n')).toBe(true);
  });
});

describe('an invalid file', () => {
  it('exits 1, reporting each invalid item by 0-based index and wire key', () => {
    const path = json([
      validRequisitionWire(),
      { ...validRequisitionWire(), titlerole: '', hoursunitsperday: '25' },
      { ...validRequisitionWire(), titleRole: 'Developer' },
    ]);
    const result = run(['--kind', 'requisition', path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const { valid, items } = report(result.stdout);
    expect(valid).toBe(false);
    expect(items.map((item) => [item.index, item.valid])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
    expect(items[0]?.errors).toEqual([]);
    const second = new Map(items[1]?.errors.map((error) => [error.field, error.message]));
    expect([...second.keys()].sort()).toEqual(['hoursunitsperday', 'titlerole']);
    expect(second.get('titlerole')).toMatch(/Job title is required/);
    expect(second.get('hoursunitsperday')).toMatch(/between 0 and 24/);
    expect(items[2]?.errors).toEqual([
      { field: 'titleRole', message: expect.stringMatching(/did you mean titlerole/) as string },
    ]);
  });

  it('reports candidate errors by wire key', () => {
    const result = run([
      '--kind',
      'candidate',
      json([{ ...validCandidateWire(), candemail: 'ada@', answer6: 'x' }]),
    ]);
    expect(result.code).toBe(1);
    const fields = report(result.stdout).items[0]?.errors.map((error) => error.field);
    expect(fields?.sort()).toEqual(['answer6', 'candemail']);
  });

  it('reports a requisition file checked as candidates as invalid, not broken', () => {
    const result = run(['--kind', 'candidate', json([validRequisitionWire()])]);
    expect(result.code).toBe(1);
    expect(report(result.stdout).items[0]?.errors.length).toBeGreaterThan(0);
  });
});

describe('--date-format', () => {
  const isoDates = { ...validRequisitionWire(), startdate: '2026-12-01', enddate: '2027-01-31' };
  const usDates = { ...validRequisitionWire(), startdate: '12/01/2026', enddate: '01/31/2027' };

  it('defaults to YYYY-MM-DD', () => {
    expect(run(['--kind', 'requisition', json([isoDates])]).code).toBe(0);
    const result = run(['--kind', 'requisition', json([usDates])]);
    expect(result.code).toBe(1);
    expect(report(result.stdout).items[0]?.errors.map((error) => error.field)).toEqual([
      'startdate',
      'enddate',
    ]);
  });

  it('checks dates as MM/DD/YYYY when asked', () => {
    expect(
      run(['--kind', 'requisition', '--date-format', 'MM/DD/YYYY', json([usDates])]).code,
    ).toBe(0);
    const result = run(['--kind', 'requisition', json([isoDates]), '--date-format', 'MM/DD/YYYY']);
    expect(result.code).toBe(1);
    expect(report(result.stdout).items[0]?.errors[0]?.message).toMatch(/MM\/DD\/YYYY/);
  });

  it('refuses an unknown format with exit 2', () => {
    const line = expectBroken(
      run(['--kind', 'requisition', '--date-format', 'dd.mm.yyyy', json([isoDates])]),
    );
    expect(line).toMatch(/--date-format must be a date pattern .*"dd", which is no token/);
  });
});

describe('a file that cannot be checked: exit 2, one line on stderr, nothing on stdout', () => {
  it('a missing file', () => {
    const line = expectBroken(run(['--kind', 'requisition', join(dir, 'no-such-file.json')]));
    expect(line).toMatch(/no-such-file\.json/);
    expect(line).toMatch(/no such file/);
  });

  it('a directory', () => {
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    expectBroken(run(['--kind', 'requisition', sub]));
  });

  it.each([
    ['not JSON at all', 'this is not json'],
    ['JSON cut short, over several lines', '[\n  {\n    "requesttype": "I",\n'],
    ['an empty file', ''],
    // The parser quotes the source around the error, newlines included.
    ['a JSON error quoted over several lines', '{\n  "requesttype": I\n}'],
  ])('%s', (_name, contents) => {
    expect(expectBroken(run(['--kind', 'requisition', file(contents)]))).toMatch(/not valid JSON/);
  });

  it.each([
    ['an object', { requesttype: 'I' }],
    ['a string', 'requisitions'],
    ['null', null],
  ])('a JSON value that is not an array: %s', (_name, value) => {
    expect(expectBroken(run(['--kind', 'requisition', json(value)]))).toMatch(/JSON array/);
  });

  it.each([
    ['a number', 2, [validRequisitionWire(), 42]],
    ['null', 1, [null]],
    ['an array', 2, [validRequisitionWire(), []]],
  ])('an array holding %s', (name, position, value) => {
    expect(expectBroken(run(['--kind', 'requisition', json(value)]))).toMatch(
      `Every item of the array must be a requisition object ({ "field": "value", … }), but item ${position} is ${name}`,
    );
  });

  it('an empty array', () => {
    expect(expectBroken(run(['--kind', 'candidate', json([])]))).toMatch(/empty/);
  });
});

describe('usage errors: exit 2', () => {
  it.each([[['--kind', 'vendor']], [['--kind', 'Requisition']], [[]]])(
    'a bad or missing --kind: %j',
    (args) => {
      const line = expectBroken(run([...args, json([validCandidateWire()])]));
      expect(line).toMatch(/--kind must be requisition or candidate/);
    },
  );

  it('no file, or two files', () => {
    expectBroken(run(['--kind', 'requisition']));
    const path = json([validRequisitionWire()]);
    expectBroken(run(['--kind', 'requisition', path, path]));
  });

  it('an unknown option', () => {
    expectBroken(run(['--kind', 'requisition', '--strict', json([validRequisitionWire()])]));
  });
});

describe('a file read item by item (json-array.ts): the report of the array read whole', () => {
  const items: Record<string, unknown>[] = Array.from({ length: 30 }, (_, i) =>
    i % 7 === 3
      ? { ...validRequisitionWire(), noofopenings: 'many', titleRole: 'x' }
      : i % 7 === 5
        ? { ...validRequisitionWire(), startdate: 20270101 }
        : requisitionFormToWire(fullRequisitionForm(i), 'YYYY-MM-DD'),
  );
  const expected = (value: unknown[]) =>
    `${JSON.stringify(validateBatch('requisition', value, { dateFormat: 'YYYY-MM-DD' }), null, 2)}\n`;

  it.each([
    ['compact', JSON.stringify(items)],
    ['indented', JSON.stringify(items, null, 2)],
    ['tab-indented, CRLF', JSON.stringify(items, null, '\t').replaceAll('\n', '\r\n')],
    ['with a byte-order mark', `\ufeff${JSON.stringify(items)}`],
  ])('%s', (_, contents) => {
    const result = run(['--kind', 'requisition', file(contents)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(expected(items));
  });

  it('values that look like the cut between items, or nested objects, read whole: the same report', () => {
    const tricky = [
      { ...validRequisitionWire(), titlerole: 'Lead},{"orgid":"x"' },
      { ...validRequisitionWire(), shortdescription: '} ,\n {' },
      { ...validRequisitionWire(), divbranch: [{ a: '1' }, { b: '2' }] },
      validAmendWire(),
    ];
    const result = run(['--kind', 'requisition', json(tricky)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(expected(tricky));
  });
});

describe('a file read as a stream (large files): the same report and the same refusals', () => {
  const items = Array.from({ length: 2500 }, (_, i) =>
    i % 997 === 5 ? { ...validRequisitionWire(), noofopenings: 'many' } : validRequisitionWire(),
  );

  it('reports exactly what reading it whole reports, across chunks of items', async () => {
    const path = json(items);
    const whole = run(['--kind', 'requisition', path]);
    const streamed = await main(['--kind', 'requisition', path], 0);
    expect(streamed.code).toBe(1);
    expect(streamed.stderr).toBe('');
    expect(streamed.stdout).toBe(whole.stdout);
    const invalid = report(streamed.stdout).items.filter((item) => !item.valid);
    expect(invalid.map((item) => item.index)).toEqual([5, 1002, 1999]);
  });

  it('refuses what is not an array, an empty array, broken JSON and a non-object item', async () => {
    const refused = async (contents: string) =>
      expectBroken(await main(['--kind', 'requisition', file(contents)], 0));
    expect(await refused('{"titlerole": "x"}')).toMatch(/not a JSON array of requisition objects/);
    expect(await refused('[]')).toMatch(/empty array/);
    expect(await refused('[{"titlerole": "x"},')).toMatch(/not a JSON array/);
    expect(await refused(`[${JSON.stringify(validRequisitionWire())}, 42]`)).toMatch(/item 1/);
  });

  it('streams only above the size given, and says what is wrong with the arguments either way', async () => {
    const path = json([validRequisitionWire()]);
    expect((await main(['--kind', 'requisition', path])).code).toBe(0);
    expect(expectBroken(await main(['--kind', 'nope', path], 0))).toMatch(/--kind/);
    expect(
      expectBroken(await main(['--kind', 'requisition', join(dir, 'missing.json')], 0)),
    ).toMatch(/no such file/);
  });
});

describe('the real command (node build/cli/validate.mjs, as built), as integrators run it', () => {
  const builtDir = mkdtempSync(join(tmpdir(), 'validate-cli-'));
  let built = '';
  beforeAll(async () => {
    built = await buildCli(builtDir);
  });
  afterAll(() => rmSync(builtDir, { recursive: true, force: true }));
  const command = (...args: string[]) => {
    const result = spawnSync(process.execPath, [built, ...args], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('a valid file: exit 0, the report on stdout, nothing on stderr', () => {
    const result = command(
      '--kind',
      'requisition',
      json([validRequisitionWire(), validAmendWire()]),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(report(result.stdout)).toEqual({
      valid: true,
      items: [
        { index: 0, valid: true, errors: [] },
        { index: 1, valid: true, errors: [] },
      ],
    });
  });

  it('an invalid file: exit 1, errors by wire key', () => {
    const result = command(
      '--kind',
      'candidate',
      '--date-format',
      'MM/DD/YYYY',
      json([validCandidateWire(), { ...validCandidateWire(), engagementtype: '5' }]),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const { valid, items } = report(result.stdout);
    expect(valid).toBe(false);
    expect(items[1]).toMatchObject({ index: 1, valid: false });
    expect(items[1]?.errors.map((error) => error.field)).toEqual(['engagementtype']);
    expect(items[1]?.errors[0]?.message).toMatch(/one of/);
  });

  it('a CSV sheet: its rows checked, by row and column, with Papa Parse bundled in', () => {
    const csv = join(dir, 'built.csv');
    writeFileSync(csv, 'Job title,Days per week\nNurse,9\n');
    const result = command('--kind', 'requisition', '--org', '1001', csv);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const sheetReport = z
      .object({
        rows: z.array(
          z.object({
            row: z.number(),
            errors: z.array(z.object({ field: z.string(), column: z.string() })),
          }),
        ),
      })
      .parse(JSON.parse(result.stdout));
    expect(sheetReport.rows[0]?.row).toBe(2);
    expect(sheetReport.rows[0]?.errors).toContainEqual({
      field: 'daysperweek',
      column: 'Days per week',
    });
  });

  it('a broken file: exit 2, one line on stderr, nothing on stdout', () => {
    const result = command('--kind', 'requisition', file('{\n  "requesttype": I\n}'));
    const line = expectBroken(result);
    expect(line).toMatch(/not valid JSON/);
  });
});
