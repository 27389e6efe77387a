import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unixSeconds } from '@/node/signature';
import { call, tempDbPath } from '@/test-support/sandbox-client';
import { startSandbox, type RunningSandbox } from './index';

// A sandbox whose clock is off on purpose (clockSkewMs, SANDBOX_CLOCK_SKEW_MS): it checks
// signatures by its own clock and says its time in every answer's Date header, as a real VMS
// whose clock is wrong would.

const skewMs = 600_000;
const db = tempDbPath();
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dbPath: db.dbPath, clockSkewMs: skewMs });
});
afterAll(async () => {
  await sandbox.close();
  db.remove();
});

describe('a sandbox ten minutes ahead', () => {
  it('refuses a call signed by a right clock and takes one signed by its own', async () => {
    const now = Date.now();
    expect((await call(sandbox.url, '/requisitions')).status).toBe(403);
    const ahead = await call(sandbox.url, '/requisitions', {
      timestamp: unixSeconds(now + skewMs),
    });
    expect(ahead.status).toBe(200);
  });

  it('sends its own time in the Date header, refusals included', async () => {
    for (const headers of [{}, { 'x-api-key': 'nobody' }]) {
      const before = Date.now();
      const answer = await fetch(`${sandbox.url}/requisitions`, { headers });
      const after = Date.now();
      const date = Date.parse(answer.headers.get('date') ?? '');
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(date).toBeGreaterThanOrEqual(Math.floor((before + skewMs) / 1000) * 1000);
      expect(date).toBeLessThanOrEqual(after + skewMs);
    }
  });
});
