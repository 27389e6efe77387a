import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { startTestPostgres, type TestPostgres } from '@/test-support/postgres-server';

/*
 * /api/health/ready when the PostgreSQL server stops answering: a server of its own, started and
 * stopped here, so this file is in the unit project only (the postgres project runs the server's
 * suite with every store on the shared server instead).
 */

let upstream: CaptureUpstream;
const portals: TestPortal[] = [];
const servers: TestPostgres[] = [];

async function portal(env: NodeJS.ProcessEnv): Promise<TestPortal> {
  const started = await startTestPortal(testConfig(upstream.url, env));
  portals.push(started);
  return started;
}

function probe(at: TestPortal, which: 'live' | 'ready') {
  return at.call('GET', `/api/health/${which}`);
}

beforeEach(async () => {
  upstream = await startCaptureUpstream();
});

afterEach(async () => {
  for (const running of portals.splice(0)) await running.close();
  for (const server of servers.splice(0)) server.stop();
  await upstream.close();
});

describe('the health probes', () => {
  it('say not ready, while alive, when the PostgreSQL server stops answering', async () => {
    const server = await startTestPostgres();
    servers.push(server);
    const running = await portal({ DATABASE_URL: server.createDatabase(), AUTH: 'on' });
    expect((await probe(running, 'ready')).status).toBe(200);

    server.stop();
    servers.splice(servers.indexOf(server), 1);
    const ready = await probe(running, 'ready');
    expect(ready.status).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'unavailable',
      database: { kind: 'postgres', schemaVersion: null },
    });
    expect(String((ready.json() as { reasons: string[] }).reasons)).toContain(
      'the portal database cannot be read',
    );
    // Liveness asks nothing of the database, not even a browser's session cookie.
    const live = await running.call('GET', '/api/health/live', {
      headers: { cookie: `vms_session=${'s'.repeat(43)}` },
    });
    expect(live.status).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  }, 60_000);
});
