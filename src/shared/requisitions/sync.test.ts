import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFullReadEvery, type FullReadEvery } from '@/domain/list-refresh';
import { requisitionRecordSchema } from '@/domain/requisition-record';
import { listTotalHeader } from '@/domain/vms-contract';
import { servePageOrigin } from '@/test-support/page-origin';
import {
  dropCopiesInMemory,
  missedByRefreshes,
  newestOf,
  refreshFilterProblem,
  syncRequisitions,
  totalProblem,
} from './sync';

/*
 * The list's refresh is checked against what the VMS answers, never taken on trust: a VMS that
 * ignores the refresh's filter, or whose refreshes miss a change, is found out, the list is read
 * whole from then on, and the sync says why. Against a real HTTP server answering GET
 * Requisitions as the portal's proxy does; each test uses a client org of its own (the sync
 * keeps each scope's copy).
 */

interface Listed {
  Req_Id: string;
  TitleRole: string;
  Req_Updated_Date_Time: string;
}

/**
 * Each client org's requisitions, whether its "VMS" applies the list's filter, and the count of
 * all its records the portal hands on (list.total), when the org's VMS gives one: `total` says
 * how many it counts, by default as many as it holds.
 */
const vms = new Map<
  number,
  {
    records: Listed[];
    honoursFilter: boolean;
    calls: string[];
    total?: (records: readonly Listed[]) => number;
  }
>();

let origin: Awaited<ReturnType<typeof servePageOrigin>>;
beforeAll(async () => {
  origin = await servePageOrigin((request, response) => {
    const url = new URL(request.url ?? '/', 'http://portal');
    const org = vms.get(Number(url.searchParams.get('Client_Org_Id')));
    org?.calls.push(url.search);
    let records = org?.records ?? [];
    const since = url.searchParams.get('filtervalue');
    if (org?.honoursFilter && since !== null) {
      records = records.filter((record) => record.Req_Updated_Date_Time >= since);
    }
    const total = org?.total ? { [listTotalHeader]: String(org.total(org.records)) } : {};
    response.writeHead(200, { 'content-type': 'application/json', ...total });
    response.end(JSON.stringify(records));
  });
});
afterAll(() => origin.close());

const source = 'sandbox:test';
const minute = 60_000;

function vmsFor(clientOrgId: number, honoursFilter: boolean, fullReadEvery?: FullReadEvery) {
  const org: NonNullable<ReturnType<typeof vms.get>> = {
    honoursFilter,
    calls: [] as string[],
    records: [
      { Req_Id: '1', TitleRole: 'Night nurse', Req_Updated_Date_Time: '2026-11-20T09:00:00Z' },
      { Req_Id: '2', TitleRole: 'Day nurse', Req_Updated_Date_Time: '2026-11-21T10:00:00Z' },
    ],
  };
  vms.set(clientOrgId, org);
  const sync = (now: number) =>
    syncRequisitions(
      {
        orgs: { clientOrgId, vendorOrgId: 9001 },
        source,
        mainHas: true,
        ...(fullReadEvery ? { fullReadEvery } : {}),
      },
      { now, handedOn: async () => undefined },
    );
  return { org, sync };
}

const filtered = (calls: readonly string[]) => calls.map((call) => call.includes('filtervalue'));

describe('a refresh', () => {
  it('asks only for what changed while the VMS applies its filter, and reads the whole list every so often', async () => {
    const { org, sync } = vmsFor(11, true);
    const start = Date.parse('2026-11-22T08:00:00Z');
    expect((await sync(start)).warning).toBeNull();
    const every = defaultFullReadEvery.refreshes;
    expect(every).toBe(20);
    for (let refresh = 1; refresh <= every; refresh += 1) {
      const result = await sync(start + refresh);
      expect(result.warning).toBeNull();
    }
    // The first read, 19 refreshes, then a whole read at the 20th.
    expect(filtered(org.calls)).toEqual([false, ...Array<boolean>(every - 1).fill(true), false]);
  });

  it('that the VMS answers with records updated before its "since" reads the whole list, and says why', async () => {
    const { org, sync } = vmsFor(12, false);
    const start = Date.parse('2026-11-22T08:00:00Z');
    await sync(start);
    org.records.push({
      Req_Id: '3',
      TitleRole: 'Porter',
      Req_Updated_Date_Time: '2026-11-22T07:00:00Z',
    });
    const refreshed = await sync(start + minute);
    expect(refreshed.replace).toBe(true);
    expect(refreshed.records.map((record) => record.reqId)).toEqual(['1', '2', '3']);
    expect(refreshed.warning).toContain("it did not apply the list's filter");
    expect(refreshed.warning).toContain('list.filter');
    // From then on every refresh is a whole read, and still says why.
    const next = await sync(start + 2 * minute);
    expect(next.warning).toBe(refreshed.warning);
    expect(filtered(org.calls)).toEqual([false, true, false, false]);
  });

  it('whose changes a whole read finds missed is not trusted again', async () => {
    const { org, sync } = vmsFor(13, true);
    const start = Date.parse('2026-11-22T08:00:00Z');
    await sync(start);
    expect((await sync(start + minute)).warning).toBeNull();
    // A change the VMS dated before the newest change the refresh had seen: no refresh asks
    // for it (a VMS that stamps a record when its transaction began, say).
    const first = org.records[0];
    if (first) first.TitleRole = 'Night nurse (ICU)';
    expect((await sync(start + 2 * minute)).records).toEqual([]);
    // The whole read 30 minutes on finds it, and the list is read whole from then on.
    const whole = await sync(start + 31 * minute);
    expect(whole.records.find((record) => record.reqId === '1')?.fields.titlerole).toBe(
      'Night nurse (ICU)',
    );
    expect(whole.warning).toMatch(/^A full read found 1 requisition that the refreshes/);
    await sync(start + 32 * minute);
    expect(filtered(org.calls)).toEqual([false, true, true, false, false]);
  });
});

describe('how often the list is read whole', () => {
  it('follows the connection’s number of refreshes', async () => {
    const { org, sync } = vmsFor(21, true, { refreshes: 3, minutes: 30 });
    const start = Date.parse('2026-11-22T08:00:00Z');
    for (let refresh = 0; refresh <= 6; refresh += 1) await sync(start + refresh);
    // A whole read, two refreshes, a whole read at the 3rd, and again.
    expect(filtered(org.calls)).toEqual([false, true, true, false, true, true, false]);
  });

  it('reads whole once the connection’s minutes have passed since the last whole read, even after a reload', async () => {
    const { org, sync } = vmsFor(22, true, { refreshes: 20, minutes: 60 });
    const start = Date.parse('2026-11-22T08:00:00Z');
    await sync(start);
    await sync(start + 59 * minute);
    // The page reloads: the copy and when it was last read whole come from IndexedDB.
    dropCopiesInMemory();
    await sync(start + 59 * minute + 30_000);
    await sync(start + 61 * minute);
    expect(filtered(org.calls)).toEqual([false, true, true, false]);
  });

  it('is every 20th refresh or every 30 minutes, without a profile that says', async () => {
    const { org, sync } = vmsFor(23, true);
    const start = Date.parse('2026-11-22T08:00:00Z');
    await sync(start);
    await sync(start + 29 * minute);
    await sync(start + 31 * minute);
    expect(filtered(org.calls)).toEqual([false, true, false]);
  });
});

describe('the VMS’s count of the records (list.total)', () => {
  const start = Date.parse('2026-11-22T08:00:00Z');

  it('agreeing with the list held, changes nothing', async () => {
    const { org, sync } = vmsFor(31, true);
    org.total = (records) => records.length;
    await sync(start);
    const refreshed = await sync(start + minute);
    expect(refreshed.warning).toBeNull();
    expect(filtered(org.calls)).toEqual([false, true]);
  });

  it('disagreeing after a refresh, reads the list whole at once and says why', async () => {
    const { org, sync } = vmsFor(32, true);
    org.total = (records) => records.length;
    await sync(start);
    // Removed at the VMS: a refresh asks only for what changed, and cannot see it go.
    org.records.splice(0, 1);
    const refreshed = await sync(start + minute);
    expect(refreshed.replace).toBe(true);
    expect(refreshed.records.map((record) => record.reqId)).toEqual(['2']);
    expect(refreshed.warning).toContain(
      'After a refresh this list held 2 requisitions, but the VMS counts 1 requisition (list.total)',
    );
    // The whole read agreed with the count: the next refresh asks only for changes again.
    const next = await sync(start + 2 * minute);
    expect(next.warning).toBeNull();
    expect(filtered(org.calls)).toEqual([false, true, false, true]);
  });

  it('disagreeing with a whole read, keeps reading whole and names the keys to check', async () => {
    const { org, sync } = vmsFor(33, true);
    org.total = (records) => records.length + 50;
    const first = await sync(start);
    expect(first.warning).toContain(
      'A full read of this list answered 2 requisitions, but the VMS counts 52 requisitions (list.total)',
    );
    expect(first.warning).toContain('list.paging');
    expect((await sync(start + minute)).warning).toBe(first.warning);
    expect(filtered(org.calls)).toEqual([false, false]);
  });
});

describe('the checks themselves', () => {
  const record = (reqId: string, updatedAt: string) =>
    requisitionRecordSchema.parse({ Req_Id: reqId, Req_Updated_Date_Time: updatedAt });

  it('find nothing wrong in an answer that holds only what changed since', () => {
    expect(
      refreshFilterProblem('2026-11-21T10:00:00Z', [record('2', '2026-11-21T10:00:00Z')]),
    ).toBeNull();
    // A record without a last-updated time says nothing either way.
    expect(refreshFilterProblem('2026-11-21T10:00:00Z', [record('4', '')])).toBeNull();
  });

  it('count the records updated before "since", in words', () => {
    const problem = refreshFilterProblem('2026-11-21T10:00:00Z', [
      record('1', '2026-11-20T09:00:00Z'),
      record('2', '2026-11-21T10:00:00Z'),
      record('3', '2026-11-19T09:00:00Z'),
    ]);
    expect(problem).toMatch(/answered 2 requisitions updated before then/);
  });

  it('take a record changed after "since" for a new change, not a missed one', () => {
    const copy = new Map([['1', record('1', '2026-11-20T09:00:00Z')]]);
    expect(
      missedByRefreshes(copy, '2026-11-21T10:00:00Z', [record('1', '2026-11-22T09:00:00Z')]),
    ).toBeNull();
    expect(
      missedByRefreshes(copy, '2026-11-21T10:00:00Z', [
        record('1', '2026-11-20T09:00:00Z'),
        record('5', '2026-11-20T11:00:00Z'),
      ]),
    ).toMatch(/found 1 requisition that/);
  });
});

/** A record as the browser reads one from the portal's list. */
const listed = (reqId: string, updatedAt: string) =>
  requisitionRecordSchema.parse({ Req_Id: reqId, Req_Updated_Date_Time: updatedAt });

describe('the count check', () => {
  it('says nothing without a count, or with one that agrees', () => {
    expect(totalProblem(3, null, 'refresh')).toBeNull();
    expect(totalProblem(3, 3, 'full read')).toBeNull();
    expect(totalProblem(1, 2, 'refresh')).toMatch(/held 1 requisition, but the VMS counts 2/);
  });
});

describe('the time a refresh asks for changes since', () => {
  it('is the latest last-updated time the portal read', () => {
    expect(
      newestOf([listed('1', '2026-03-02T14:30:00Z'), listed('2', '2026-05-01T08:00:00Z')]),
    ).toBe('2026-05-01T08:00:00Z');
    expect(newestOf([listed('1', '2026-03-02T14:30:00Z')], '2026-04-01T00:00:00Z')).toBe(
      '2026-04-01T00:00:00Z',
    );
  });

  it('leaves out a time the profile could not read, though it sorts after every ISO time', () => {
    const records = [listed('1', '2026-03-02T14:30:00Z'), listed('2', '31/12/2026 10:00:00')];
    expect(newestOf(records)).toBe('2026-03-02T14:30:00Z');
  });
});
