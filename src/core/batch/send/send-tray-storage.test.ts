// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { trayStore } from '@/core/batch/hooks/use-batch-tray';
import type { Submission } from '@/core/batch/model/submissions-state';
import { requisitionPayload } from '@/domain';
import { sendTray } from './send-tray';

// The key must be stored before a batch leaves (a reload after that sends again under it): where
// the browser refuses to store it, nothing is sent. jsdom has no IndexedDB, so the tray is kept
// in localStorage, whose 5 MB quota a large item fills.

describe('sendTray where the browser will not store the tray', () => {
  it('sends nothing and says what to do, the items still in the tray', async () => {
    const store = trayStore('requisition', 3001);
    await store.ready;
    const big = 'x'.repeat(6 * 1024 * 1024);
    store.set({
      items: [{ id: 'a', wire: { titlerole: big }, addedAt: '2026-11-23T09:00:00.000Z' }],
      sendKey: null,
    });
    const posted: unknown[] = [];
    const recorded: Submission[] = [];
    const sending = sendTray({
      kind: requisitionPayload,
      store,
      orgs: { clientOrgId: 3001, vendorOrgId: 9001 },
      connection: null,
      productionConfirmed: () => false,
      post: async (batch) => {
        posted.push(batch);
        return { batchId: 'rb_1', received: 1 };
      },
      record: (submission) => recorded.push(submission),
      newId: () => 'key-1',
      now: () => new Date('2026-11-23T10:00:00.000Z'),
      waitMs: 1000,
    });
    await expect(sending).rejects.toThrow(
      /could not be saved in this browser before sending, so it was not sent.*Free some browser storage/,
    );
    expect(posted).toEqual([]);
    expect(recorded).toEqual([]);
    expect(store.get().items.map((item) => item.id)).toEqual(['a']);
  });
});
