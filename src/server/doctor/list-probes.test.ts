import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReportSchema, type DoctorReport, type ProbeId } from '@/domain/connection-check';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { startSandbox, type RunningSandbox } from '@/sandbox/index';
import { doctorTarget as targetFor, exampleProfile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { runDoctor } from './run-doctor';

/*
 * The doctor's paging and filter probes against the sandbox speaking another VMS's dialect
 * (docs/examples/profile-other-vms.json: pages by "page" and "per_page" from page 1, filters by
 * "field", "op" and "value", and ignores parameters it does not know), each time with a profile
 * wrong in one way. A probe passes only on what the VMS answered, and says what that was.
 */

function probe(report: DoctorReport, id: ProbeId) {
  const found = doctorReportSchema.parse(report).probes.find((result) => result.id === id);
  if (!found) throw new Error(`no ${id} probe in the report`);
  return found;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function sandboxSpeaking(profile: VmsProfile): Promise<RunningSandbox> {
  const db = tempDbPath();
  const sandbox = await startSandbox({ port: 0, dbPath: db.dbPath, processingDelayMs: 0, profile });
  cleanups.push(db.remove, () => sandbox.close());
  return sandbox;
}

describe('the list paging and filter probes', () => {
  let other: RunningSandbox;
  let right: VmsProfile;
  beforeAll(async () => {
    right = exampleProfile();
    other = await sandboxSpeaking(right);
  });

  it('pass with the right profile, each naming the calls it made and what came back', async () => {
    const report = await runDoctor(targetFor(other.url, right));
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('passed');
    expect(paging.finding).toContain('Pages follow on');
    expect(paging.evidence).toHaveLength(3);
    expect(paging.evidence[0]).toMatch(
      /^GET api\/v2\/requisitions\?.*page=1&per_page=2 → 200, 2 records/,
    );
    expect(paging.evidence[1]).toMatch(/page=2&per_page=2 → 200, 2 records/);
    expect(paging.evidence[2]).toMatch(/page=1&per_page=4 → 200, 4 records/);
    const filter = probe(report, 'filter');
    expect(filter.verdict).toBe('passed');
    expect(filter.evidence[0]).toMatch(/field=req_id&op=%3D&value=0 → 200, 0 records/);
    expect(filter.evidence[1]).toMatch(/→ 200, 1 record \(Req IDs \d+\)/);
  });

  it('fail when the profile says "no paging" of a VMS that pages, naming the parameter it reads', async () => {
    const report = await runDoctor(
      targetFor(other.url, { ...right, list: { ...right.list, paging: { style: 'none' } } }),
    );
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('failed');
    expect(paging.finding).toContain('list.paging.style "none"');
    expect(paging.finding).toContain('page=2');
    expect(paging.fix).toContain('the VMS reads "page"');
    // The plain list and the call that showed the paging.
    expect(paging.evidence.at(-1)).toMatch(/page=2 → 200/);
  });

  it('fail when the page-size parameter is one the VMS ignores', async () => {
    const paging = right.list.paging;
    if (paging.style !== 'page') throw new Error('the example profile pages by page number');
    const report = await runDoctor(
      targetFor(other.url, {
        ...right,
        list: { ...right.list, paging: { ...paging, size: 'pageSize' } },
      }),
    );
    const result = probe(report, 'paging');
    expect(result.verdict).toBe('failed');
    // The VMS pages by its own size (more than 2): the finding says so and names the key.
    expect(result.finding).toContain('it does not read "pageSize"');
    expect(result.fix).toContain('list.paging.size');
  });

  it('fail when the page parameter is one the VMS ignores', async () => {
    const paging = right.list.paging;
    if (paging.style !== 'page') throw new Error('the example profile pages by page number');
    const report = await runDoctor(
      targetFor(other.url, {
        ...right,
        list: { ...right.list, paging: { ...paging, page: 'pageNumber' } },
      }),
    );
    const result = probe(report, 'paging');
    expect(result.verdict).toBe('failed');
    expect(result.finding).toContain('the VMS does not read "pageNumber"');
  });

  it('fail when pages are counted from the wrong first page', async () => {
    const paging = right.list.paging;
    if (paging.style !== 'page') throw new Error('the example profile pages by page number');
    const report = await runDoctor(
      targetFor(other.url, {
        ...right,
        list: { ...right.list, paging: { ...paging, firstPage: 0 } },
      }),
    );
    const result = probe(report, 'paging');
    expect(result.verdict).toBe('failed');
    expect(result.fix).toContain('list.paging.firstPage');
  });

  it('fail when the VMS ignores the filter names, naming them', async () => {
    const report = await runDoctor(
      targetFor(other.url, {
        ...right,
        list: {
          ...right.list,
          filter: { field: 'filterfield', operator: 'filteroperator', value: 'filtervalue' },
        },
      }),
    );
    const filter = probe(report, 'filter');
    expect(filter.verdict).toBe('failed');
    expect(filter.finding).toContain('"filterfield", "filteroperator" and "filtervalue"');
    expect(filter.finding).toMatch(/answered \d+ records: the VMS ignores those parameter names/);
    expect(filter.fix).toContain('list.filter.field');
    expect(report.verdict).toBe('failed');
  });
});

describe('a VMS that does not page', () => {
  it('passes "no paging" only after each common paging parameter changed nothing', async () => {
    const own = sandboxProfile();
    const sandbox = await sandboxSpeaking(own);
    const report = await runDoctor(targetFor(sandbox.url, own));
    const paging = probe(report, 'paging');
    expect(paging.verdict).toBe('passed');
    expect(paging.finding).toContain('The VMS ignores paging');
    // The plain list, then one call per parameter tried.
    expect(paging.evidence.length).toBeGreaterThan(10);
    expect(new Set(paging.evidence.map((line) => line.replace(/^GET \S+ /, '')))).toHaveProperty(
      'size',
      1,
    );
    expect(probe(report, 'filter').verdict).toBe('passed');
  });
});
