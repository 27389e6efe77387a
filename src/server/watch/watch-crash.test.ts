import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchWatchSchema } from '@/domain/batch-watch';
import {
  requisitionImportPath,
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
} from '@/test-support/capture-upstream';
import { queryTestDatabase } from '@/test-support/test-database';

/*
 * A portal alone on its SQLite file that died in the middle of a check left that check's lease
 * (decision 050): the next start ends it instead of waiting it out, so the watch goes on at once.
 */

let dir: string;
let upstream: CaptureUpstream;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'watch-crash-'));
  upstream = await startCaptureUpstream();
  upstream.respondWith((request) =>
    request.method === 'POST'
      ? {
          status: 202,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ batchid: 'rb_crashed', received: 1 }),
        }
      : {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([{ Batch_Id: 'rb_crashed', Row: 1, Status: 'Success' }]),
        },
  );
});

afterAll(async () => {
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a watch whose process died mid-check', () => {
  it('is checked at once by the next start on the same SQLite file', async () => {
    const portalDb = join(dir, 'portal.db');
    const config = testConfig(upstream.url, { WATCH: 'on', PORTAL_DB: portalDb });
    const first = await startTestPortal(config, {
      watcher: { backoff: { firstMs: 60_000, maxMs: 60_000 } },
    });
    try {
      const sent = await first.call('POST', requisitionImportPath, {
        headers: { 'content-type': 'application/json' },
        body: '[{"titlerole":"Welder"}]',
      });
      expect(sent.status).toBe(202);
    } finally {
      await first.close();
    }
    // What a process killed during its check leaves: the check due, its lease an hour long.
    const inAnHour = Date.now() + 3_600_000;
    await queryTestDatabase(
      portalDb,
      `UPDATE batch_watches SET next_at = 0, claimed_by = 'dead', claimed_until = ${inAnHour}`,
    );

    const second = await startTestPortal(config, {
      watcher: { backoff: { firstMs: 50, maxMs: 100 } },
    });
    try {
      const deadline = Date.now() + 10_000;
      let state = '';
      while (state !== 'settled' && Date.now() < deadline) {
        const answer = await second.call('GET', '/api/watches/rb_crashed');
        state = batchWatchSchema.parse(answer.json()).state;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(state).toBe('settled');
    } finally {
      await second.close();
    }
  });
});
