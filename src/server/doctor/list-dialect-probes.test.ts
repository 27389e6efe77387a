import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReportSchema, type DoctorReport, type ProbeId } from '@/domain/connection-check';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { startSandbox, type RunningSandbox } from '@/sandbox/index';
import { doctorTarget as targetFor, exampleProfile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { runDoctor } from './run-doctor';

/*
 * The doctor against the sandbox speaking a VMS whose list differs from the interface in the ways
 * a profile's list keys describe: operator words (eq, ge…), camelCase record fields, the count of
 * all records at /meta/total, beside the documented example's paging and filter names (it ignores
 * parameters it does not know). Probed with the right profile, then with one wrong in one way.
 */

function probe(report: DoctorReport, id: ProbeId) {
  const found = doctorReportSchema.parse(report).probes.find((result) => result.id === id);
  if (!found) throw new Error(`no ${id} probe in the report`);
  return found;
}

const words = { '=': 'eq', '>': 'gt', '>=': 'ge', '<': 'lt', '<=': 'le' } as const;

function wordsProfile(): VmsProfile {
  const example = exampleProfile();
  return {
    ...example,
    list: {
      ...example.list,
      fieldNames: 'camelCase',
      total: '/meta/total',
      filter: { ...example.list.filter, operators: { ...words } },
    },
  };
}

const changed = (profile: VmsProfile, list: Partial<VmsProfile['list']>): VmsProfile => ({
  ...profile,
  list: { ...profile.list, ...list },
});

let sandbox: RunningSandbox;
let right: VmsProfile;
const cleanups: Array<() => Promise<void> | void> = [];
beforeAll(async () => {
  right = wordsProfile();
  const db = tempDbPath();
  sandbox = await startSandbox({
    port: 0,
    dbPath: db.dbPath,
    processingDelayMs: 0,
    profile: right,
  });
  cleanups.push(db.remove, () => sandbox.close());
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a VMS with operator words, camelCase records and a total', () => {
  it('passes the right profile, each probe naming its evidence', async () => {
    const report = await runDoctor(targetFor(sandbox.url, right));
    const list = probe(report, 'listRecords');
    expect(list.verdict).toBe('passed');
    expect(list.finding).toContain('camelCase field names');
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('passed');
    expect(paging.finding).toMatch(/The list's count agrees \(list.total \d+: page \d+ of 2 held/);
    // Two pages, one page of 4, then the last page the count names and the one after it.
    expect(paging.evidence).toHaveLength(5);
    expect(paging.evidence[0]).toMatch(/page=1&per_page=2 → 200, 2 records .*, total \d+$/);
    expect(paging.evidence[4]).toMatch(/→ 200, 0 records \(Req IDs none\), total \d+$/);
    const filter = probe(report, 'filter');
    expect(filter.verdict).toBe('passed');
    expect(filter.finding).toContain('"=" as "eq"');
    expect(filter.evidence[0]).toMatch(/field=req_id&op=eq&value=0 → 200, 0 records/);
    expect(filter.evidence[2]).toMatch(/op=ge&value=\d+ → 200, \d+ records/);
    expect(report.verdict).not.toBe('failed');
  });

  it('fails a profile that sends the operators as symbols, naming list.filter.operators', async () => {
    const { operators: _words, ...symbols } = right.list.filter;
    const report = await runDoctor(targetFor(sandbox.url, changed(right, { filter: symbols })));
    const filter = probe(report, 'filter');
    expect(filter.verdict).toBe('failed');
    expect(filter.finding).toContain('"=" sent as "="');
    expect(filter.fix).toContain('list.filter.operators');
    expect(filter.evidence[0]).toMatch(/op=%3D&value=0 → 400/);
  });

  it('fails a profile with one operator word wrong, naming the word and the fix', async () => {
    const filter = { ...right.list.filter, operators: { ...words, '>=': 'gte' } };
    const report = await runDoctor(targetFor(sandbox.url, changed(right, { filter })));
    const result = probe(report, 'filter');
    expect(result.verdict).toBe('failed');
    expect(result.finding).toContain('">=" sent as "gte"');
    expect(result.fix).toContain('{"=": "eq", ">": "gt", ">=": "ge"');
  });

  it('fails a profile that reads the records as PascalCase, naming list.fieldNames', async () => {
    const report = await runDoctor(
      targetFor(sandbox.url, changed(right, { fieldNames: 'PascalCase' })),
    );
    const list = probe(report, 'listRecords');
    expect(list.verdict).toBe('failed');
    expect(list.finding).toMatch(
      /camelCase style \(such as "\w+"\) but list.fieldNames says PascalCase/,
    );
    expect(list.fix).toContain('set list.fieldNames to "camelCase"');
  });

  it('fails filter names the VMS ignores, naming them', async () => {
    // The names left at the portal's own, as a profile written from the defaults would have them.
    const filter = {
      ...right.list.filter,
      field: 'filterfield',
      operator: 'filteroperator',
      value: 'filtervalue',
    };
    const report = await runDoctor(targetFor(sandbox.url, changed(right, { filter })));
    const result = probe(report, 'filter');
    expect(result.verdict).toBe('failed');
    expect(result.finding).toContain('"filterfield", "filteroperator" and "filtervalue"');
    expect(result.finding).toContain('the VMS ignores those parameter names');
  });

  it('fails a total that disagrees with the pages, naming list.total', async () => {
    // A number in the answer, but not the count: the first record's Req ID.
    const report = await runDoctor(
      targetFor(sandbox.url, changed(right, { total: '/items/0/req_id' })),
    );
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('failed');
    expect(paging.finding).toMatch(
      /^The VMS counts \d+ records at "\/items\/0\/req_id" \(list.total\)/,
    );
    expect(paging.fix).toContain('Set list.total');
  });

  it('fails a total the answer does not have, naming where it was looked for', async () => {
    const report = await runDoctor(targetFor(sandbox.url, changed(right, { total: '/count' })));
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('failed');
    expect(paging.finding).toBe(
      `The list's answer has no count of records at "/count" (list.total).`,
    );
  });
});

describe('a VMS that does not page', () => {
  async function sandboxSpeaking(profile: VmsProfile): Promise<RunningSandbox> {
    const db = tempDbPath();
    const running = await startSandbox({
      port: 0,
      dbPath: db.dbPath,
      processingDelayMs: 0,
      profile,
    });
    cleanups.push(db.remove, () => running.close());
    return running;
  }

  it('with a count, passes "no paging" only when the whole list holds that many', async () => {
    const own = sandboxProfile();
    const counted = changed(own, { records: '/items', total: '/total' });
    const running = await sandboxSpeaking(counted);
    const report = await runDoctor(targetFor(running.url, counted));
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('passed');
    expect(paging.finding).toMatch(
      /The list's count agrees \(list.total (\d+): the whole list held \1\)/,
    );
    expect(paging.evidence[0]).toMatch(/→ 200, \d+ records .*, total \d+$/);
  });

  it('in the sandbox’s own dialect, fails filter names it does not know, naming them', async () => {
    const own = sandboxProfile();
    const running = await sandboxSpeaking(own);
    const report = await runDoctor(
      targetFor(
        running.url,
        changed(own, { filter: { field: 'field', operator: 'op', value: 'value' } }),
      ),
    );
    const filter = probe(report, 'filter');
    expect(filter.verdict).toBe('failed');
    expect(filter.finding).toContain('"field", "op" and "value"');
    expect(filter.finding).toContain('the VMS ignores those parameter names');
    expect(filter.fix).toContain('list.filter.field');
  });
});
