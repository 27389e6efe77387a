import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWatchSchema, type BatchWatch } from '@/domain/batch-watch';
import { journalPageSchema } from '@/domain/journal';
import { sandboxDemo } from '@/sandbox/index';
import type { TestPortal } from '@/test-support/capture-upstream';
import { startSignedInPortal, type SignedInPortal } from '@/test-support/signed-in-portal';
import { TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * With sign-in on, a batch's watch is its sender's (decision 050): the watcher asks the VMS as
 * them, and only they or an admin read what it kept.
 */

let world: SignedInPortal;
let portal: TestPortal;
let rita: TestBrowser;
let ron: TestBrowser;
let ada: TestBrowser;

beforeAll(async () => {
  world = await startSignedInPortal({
    prefix: 'watch-access-',
    processingDelayMs: 10,
    portal: { watcher: { backoff: { firstMs: 30, maxMs: 200 } } },
    accounts: [
      { email: 'rita@example.com', role: 'recruiter', orgs: [1001] },
      { email: 'ron@example.com', role: 'recruiter', orgs: [1001] },
      { email: 'ada@example.com', role: 'admin' },
    ],
  });
  portal = world.portal;
  rita = world.browser('rita@example.com');
  ron = world.browser('ron@example.com');
  ada = world.browser('ada@example.com');
});

afterAll(() => world.close());

describe('a batch watch with sign-in on', () => {
  it('asks as the sender, and shows what it kept to the sender and admins only', async () => {
    const sent = await rita.call(
      'POST',
      `/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`,
      { body: [requisitionInsert({ clientinternalreq: 'WATCH-ACCESS-1' })] },
    );
    expect(sent.status).toBe(202);
    const { batchid } = sent.json() as { batchid: string };

    let watch: BatchWatch | null = null;
    const deadline = Date.now() + 15_000;
    while (watch?.state !== 'settled' && Date.now() < deadline) {
      const answer = await rita.call('GET', `/api/watches/${batchid}`);
      expect(answer.status).toBe(200);
      watch = batchWatchSchema.parse(answer.json());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(watch?.state).toBe('settled');
    expect(watch?.sentBy?.email).toBe('rita@example.com');
    expect(watch?.results?.rows.map((row) => row.status)).toEqual(['Success']);

    const forAdmin = await ada.call('GET', `/api/watches/${batchid}`);
    expect(forAdmin.status).toBe(200);
    expect(batchWatchSchema.parse(forAdmin.json()).batchId).toBe(batchid);

    const forRon = await ron.call('GET', `/api/watches/${batchid}`);
    expect(forRon.status).toBe(404);
    expect(forRon.text).not.toContain('WATCH-ACCESS-1');

    const stranger = await new TestBrowser(portal.url).call('GET', `/api/watches/${batchid}`);
    expect(stranger.status).toBe(401);

    // The watcher's calls are journaled as Rita's, under the watch's trace.
    const journal = journalPageSchema.parse(
      (await ada.call('GET', '/api/journal?limit=200')).json(),
    );
    const watcherCalls = journal.entries.filter((entry) => entry.traceId === watch?.traceId);
    expect(watcherCalls.length).toBeGreaterThanOrEqual(1);
    for (const entry of watcherCalls) {
      expect(entry).toMatchObject({
        operation: 'requisitionresults',
        status: 200,
        sentBy: { email: 'rita@example.com' },
      });
    }
  });
});
