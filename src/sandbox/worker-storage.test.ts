import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDbPath } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';
import { openSandboxDatabase, type SandboxDatabase } from './database';
import { loadReference } from './reference';
import { createStore, type SandboxStore } from './store';
import { createBatchWorker, type BatchWorker } from './worker';

// A full disk inside the batch worker leaves the items Pending, is retried with
// back-off, shows in health, and never escapes as an exception (it would end the process).

let temp: ReturnType<typeof tempDbPath>;
let db: SandboxDatabase;
let store: SandboxStore;
let worker: BatchWorker | undefined;
const unexpected: unknown[] = [];
const storageEvents: unknown[] = [];

beforeEach(() => {
  temp = tempDbPath();
  db = openSandboxDatabase(temp.dbPath);
  store = createStore(db);
  unexpected.length = 0;
  storageEvents.length = 0;
});

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  db.close();
  temp.remove();
});

function startWorker(): BatchWorker {
  worker = createBatchWorker({
    store,
    reference: loadReference(db),
    dateFormat: 'YYYY-MM-DD',
    processingDelayMs: 0,
    now: () => new Date('2026-11-22T10:00:00Z'),
    retryDelayMs: 20,
    onUnexpectedError: (error) => unexpected.push(error),
    onStorageHealth: (error) => storageEvents.push(error),
  });
  worker.start();
  return worker;
}

function storeBatch(batchId: string, count: number): void {
  const long = 'Maintains and extends the billing platform. '.repeat(90); // ~4 KB per record
  store.insertBatch(
    { batchId, kind: 'requisition', clientOrgId: 1001, vendorOrgId: 9001 },
    Array.from({ length: count }, () => {
      const payload = requisitionInsert({ completedescription: long });
      return { payload, reference: payload.clientinternalreq };
    }),
    '2026-11-22T10:00:00',
  );
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const statuses = (batchId: string) => store.itemResults(batchId).map((row) => row.status);

describe('the batch worker on a full disk', () => {
  it('keeps the items Pending, reports degraded, and processes them once space is back', async () => {
    storeBatch('rb_full', 6);
    // No room to grow from here on: processing an item writes a ~4 KB requisition record.
    const pages = Number(db.pragma('page_count', { simple: true }));
    db.pragma(`max_page_count = ${pages}`);

    const running = startWorker();
    await until(() => running.health().length > 0, 'the worker to report the full disk');
    expect(running.health()[0]).toMatch(/^sandbox batch worker: storage failed \(.*full.*\)/);
    expect(statuses('rb_full').filter((status) => status === 'Pending').length).toBeGreaterThan(0);
    expect(statuses('rb_full')).not.toContain('Error');
    expect(unexpected).toEqual([]);

    // Still failing after several retries, still nothing lost.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(statuses('rb_full')).not.toContain('Error');

    db.pragma('max_page_count = 1073741823');
    await until(() => statuses('rb_full').every((status) => status === 'Success'), 'recovery');
    expect(running.health()).toEqual([]);
    // Told once when it started failing, once when it recovered: no line per retry.
    expect(storageEvents).toHaveLength(2);
    expect(storageEvents[1]).toBeNull();
  });

  it('still marks an item Error when processing it has a bug, and goes on with the next', async () => {
    storeBatch('rb_bug', 2);
    const original = store.finishItem.bind(store);
    let calls = 0;
    store.finishItem = (...args) => {
      calls += 1;
      if (calls === 1) throw new TypeError('a bug in the rules');
      return original(...args);
    };
    startWorker();
    await until(() => !statuses('rb_bug').includes('Pending'), 'both items');
    expect(statuses('rb_bug')).toEqual(['Error', 'Success']);
    expect(unexpected).toHaveLength(1);
  });
});
