import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWatchSchema } from '@/domain/batch-watch';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';

/*
 * Two portal processes on one PostgreSQL (decision 050): the watches' checks are pg-boss jobs, so
 * each batch is asked about by one process at a time, and when one process stops, the other
 * finishes its watches.
 */

let upstream: CaptureUpstream;
let databaseUrl: string;
/** Results calls per batch: how many, how many at once now, and the most at once. */
const calls = new Map<string, { count: number; now: number; most: number }>();
let batches = 0;

beforeAll(async () => {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts it`);
  databaseUrl = createTestDatabase(adminUrl);
  upstream = await startCaptureUpstream();
  upstream.respondWith((request) => {
    if (request.method === 'POST') {
      batches += 1;
      return {
        status: 202,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ batchid: `rb_two_${batches}`, received: 1 }),
      };
    }
    const batchId = new URLSearchParams(request.query).get('batchid') ?? '';
    const seen = calls.get(batchId) ?? { count: 0, now: 0, most: 0 };
    seen.count += 1;
    seen.now += 1;
    seen.most = Math.max(seen.most, seen.now);
    calls.set(batchId, seen);
    // The first answer is still pending: every batch needs a second check, by either process.
    const status = seen.count === 1 ? 'Pending' : 'Success';
    let done: () => void = () => {};
    const until = new Promise<void>((resolve) => {
      done = resolve;
    });
    setTimeout(() => {
      seen.now -= 1;
      done();
    }, 150);
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ Batch_Id: batchId, Row: 1, Status: status }]),
      until,
    };
  });
});

afterAll(async () => {
  await upstream.close();
});

function portal(): Promise<TestPortal> {
  return startTestPortal(
    testConfig(upstream.url, { WATCH: 'on', DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }),
    { watcher: { backoff: { firstMs: 50, maxMs: 100 } } },
  );
}

async function send(through: TestPortal): Promise<string> {
  const answer = await through.call('POST', requisitionImportPath, {
    headers: { 'content-type': 'application/json' },
    body: '[{"titlerole":"Welder"}]',
  });
  expect(answer.status).toBe(202);
  return (answer.json() as { batchid: string }).batchid;
}

async function allSettled(reader: TestPortal, batchIds: readonly string[]): Promise<boolean> {
  for (const batchId of batchIds) {
    const answer = await reader.call('GET', `/api/watches/${batchId}`);
    if (answer.status !== 200 || batchWatchSchema.parse(answer.json()).state !== 'settled') {
      return false;
    }
  }
  return true;
}

async function waitSettled(reader: TestPortal, batchIds: readonly string[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await allSettled(reader, batchIds))) {
    if (Date.now() > deadline) throw new Error(`not all settled: ${JSON.stringify([...calls])}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('two portal processes on one PostgreSQL', () => {
  it('watch each batch from one process at a time, and one finishes what the other left', async () => {
    const first = await portal();
    const second = await portal();
    let firstOpen = true;
    try {
      const sent: string[] = [];
      for (let index = 0; index < 8; index += 1) sent.push(await send(index % 2 ? second : first));
      await waitSettled(second, sent);
      for (const batchId of sent) {
        // Asked twice (pending, then final), never two at once, never again once settled.
        expect(calls.get(batchId)).toMatchObject({ count: 2, most: 1 });
      }

      // Batches the first process accepted, then it stops before their checks are due.
      const left: string[] = [];
      for (let index = 0; index < 4; index += 1) left.push(await send(first));
      await first.close();
      firstOpen = false;
      await waitSettled(second, left);
      for (const batchId of left) {
        expect(calls.get(batchId)).toMatchObject({ count: 2, most: 1 });
      }
    } finally {
      if (firstOpen) await first.close();
      await second.close();
    }
  });
});
