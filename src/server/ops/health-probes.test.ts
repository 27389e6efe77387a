import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { portalSchemaVersion } from '@/server/portal-schema';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  testCredentials,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { queryTestDatabase } from '@/test-support/test-database';

/*
 * /api/health/live (the process answers) and /api/health/ready (send calls here now?), each
 * against a real condition: a database whose schema is not this portal's, a PostgreSQL server
 * that stopped. The drain's 503 is in drain.test.ts, where it happens.
 */

let dir: string;
let portalDb: string;
let upstream: CaptureUpstream;
const portals: TestPortal[] = [];

async function portal(env: NodeJS.ProcessEnv = {}): Promise<TestPortal> {
  const started = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: portalDb, ...env }));
  portals.push(started);
  return started;
}

function probe(at: TestPortal, which: 'live' | 'ready') {
  return at.call('GET', `/api/health/${which}`);
}

/** Sets the schema version the database says it is at, as an older or newer portal would. */
async function setSchemaVersion(version: number): Promise<void> {
  if (testConfig(upstream.url, { PORTAL_DB: portalDb }).databaseUrl === null) {
    await queryTestDatabase(portalDb, `PRAGMA user_version = ${version}`);
    return;
  }
  await queryTestDatabase(
    portalDb,
    `DELETE FROM portal_schema_versions WHERE version > ${version}`,
  );
  for (let next = 1; next <= version; next += 1) {
    await queryTestDatabase(
      portalDb,
      `INSERT INTO portal_schema_versions (version, name, applied_at) VALUES (${next}, 'set by the test', 0) ON CONFLICT (version) DO NOTHING`,
    );
  }
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-probes-'));
  portalDb = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
});

afterEach(async () => {
  for (const running of portals.splice(0)) await running.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('GET /api/health/live and /api/health/ready', () => {
  it('answer 200 on a working portal, without sign-in even when sign-in is required', async () => {
    const running = await portal({ AUTH: 'on' });
    const live = await probe(running, 'live');
    expect(live.status).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await probe(running, 'ready');
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      database: { kind: expect.any(String), schemaVersion: portalSchemaVersion },
    });
    // Nothing secret or personal in either.
    for (const answer of [live, ready]) {
      const text = answer.body.toString('utf8');
      expect(text).not.toContain(testCredentials.apiKey);
      expect(text).not.toContain(testCredentials.apiSecret);
      expect(text).not.toContain(dir);
    }
  });

  it('say not ready, while alive, when the database is at another schema version than this portal', async () => {
    const running = await portal();
    expect((await probe(running, 'ready')).status).toBe(200);

    await setSchemaVersion(portalSchemaVersion - 1);
    const behind = await probe(running, 'ready');
    expect(behind.status).toBe(503);
    expect(behind.json()).toMatchObject({
      status: 'unavailable',
      database: { schemaVersion: portalSchemaVersion - 1 },
      reasons: [
        `the portal database's schema is version ${portalSchemaVersion - 1}, but this portal works with version ${portalSchemaVersion}`,
      ],
    });
    expect((await probe(running, 'live')).status).toBe(200);
    // /api/health itself is unchanged: it reports the version, not readiness.
    expect((await running.call('GET', '/api/health')).status).toBe(200);

    await setSchemaVersion(portalSchemaVersion + 1);
    expect((await probe(running, 'ready')).status).toBe(503);

    // A live check, not a latch: back at its version, the portal is ready again.
    await setSchemaVersion(portalSchemaVersion);
    expect((await probe(running, 'ready')).status).toBe(200);
  });
});
