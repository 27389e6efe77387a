import { QueryClient } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { listedRequisition, servePageOrigin } from '@/test-support/page-origin';
import { preloadRequisitionList, requisitionListQueryOptions } from './list';

/*
 * The list's first load, started as the list page's code arrives (preloadRequisitionList), and
 * the list query that takes it, against a real HTTP server answering GET Requisitions as the
 * portal's proxy does. Here there is no Web Worker: the sync runs in the page, as it does in a
 * browser without one. Each test uses a client org of its own (the sync keeps each scope's list).
 */
let origin: Awaited<ReturnType<typeof servePageOrigin>>;
/** The calls that reached the server, by client org. */
const asked = new Map<number, number>();
/** What each client org's single requisition is called now. */
const title = new Map<number, string>();

beforeAll(async () => {
  origin = await servePageOrigin((request, response) => {
    const url = new URL(request.url ?? '/', 'http://portal');
    const org = Number(url.searchParams.get('Client_Org_Id'));
    asked.set(org, (asked.get(org) ?? 0) + 1);
    response.writeHead(url.pathname === '/api/vms/requisitions' ? 200 : 404, {
      'content-type': 'application/json',
    });
    response.end(JSON.stringify([listedRequisition(title.get(org) ?? 'Night nurse')]));
  });
});

afterAll(() => origin.close());

afterEach(() => {
  vi.useRealTimers();
});

const source = 'sandbox:test';
const orgsOf = (clientOrgId: number) => ({ clientOrgId, vendorOrgId: 9001 });
const titles = (records: readonly { fields: { titlerole: string } }[]) =>
  records.map((record) => record.fields.titlerole);

describe('the list’s first load, started before the page renders', () => {
  it('is taken by the list query: the VMS is asked once', async () => {
    const orgs = orgsOf(1);
    preloadRequisitionList(orgs, source);
    const client = new QueryClient();
    const records = await client.fetchQuery(requisitionListQueryOptions(orgs, source));
    expect(titles(records)).toEqual(['Night nurse']);
    expect(asked.get(1)).toBe(1);
  });

  it('is not started when the page shows that list already: the query refreshes it', async () => {
    const orgs = orgsOf(2);
    const client = new QueryClient();
    await client.fetchQuery(requisitionListQueryOptions(orgs, source));
    expect(asked.get(2)).toBe(1);
    title.set(2, 'Day nurse');
    preloadRequisitionList(orgs, source);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(asked.get(2)).toBe(1);
    // The refresh the query makes is the page's, and it shows the change.
    await client.refetchQueries({
      queryKey: requisitionListQueryOptions(orgs, source).queryKey,
      type: 'all',
    });
    const records = client.getQueryData(requisitionListQueryOptions(orgs, source).queryKey);
    expect(titles(records ?? [])).toEqual(['Day nurse']);
    expect(asked.get(2)).toBe(2);
  });

  it('once older than the list’s stale time, is not passed off as new: the query asks again', async () => {
    const orgs = orgsOf(3);
    preloadRequisitionList(orgs, source);
    await vi.waitFor(() => expect(asked.get(3)).toBe(1));
    // The load has come and was never taken (the page's first render showed another org).
    await new Promise((resolve) => setTimeout(resolve, 100));
    title.set(3, 'Day nurse');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16_000);
    const client = new QueryClient();
    const records = await client.fetchQuery(requisitionListQueryOptions(orgs, source));
    expect(titles(records)).toEqual(['Day nurse']);
    expect(asked.get(3)).toBe(2);
  });

  it('that has come within its stale time is the query’s first data, as old as it is', async () => {
    const orgs = orgsOf(4);
    preloadRequisitionList(orgs, source);
    await vi.waitFor(() => expect(asked.get(4)).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const cameBy = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(cameBy + 10_000);
    const client = new QueryClient();
    const options = requisitionListQueryOptions(orgs, source);
    const records = await client.fetchQuery(options);
    expect(titles(records)).toEqual(['Night nurse']);
    expect(asked.get(4)).toBe(1);
    // Stale 5 s later (15 s after it came), not 15 s after the query took it.
    const { dataUpdatedAt } = client.getQueryState(options.queryKey) ?? {};
    expect(dataUpdatedAt).toBeLessThanOrEqual(cameBy);
  });
});
