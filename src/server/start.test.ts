import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { startPortal, type RunningPortal } from './start';

// The whole chain as `npm start` runs it: portal on a free port, embedded sandbox on another.
let portal: RunningPortal;

beforeAll(async () => {
  portal = await startPortal(
    loadConfig({
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_DB: ':memory:',
      PORTAL_DB: ':memory:',
      LOG_LEVEL: 'silent',
    }),
    { sandbox: { processingDelayMs: 0 } },
  );
});

afterAll(() => portal.close());

describe('startPortal in sandbox mode', () => {
  it('listens on loopback and points the proxy at the sandbox it started', () => {
    expect(portal.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(portal.upstreamUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+/);
    expect(portal.upstreamUrl).not.toContain(new URL(portal.url).port);
  });

  it('signs calls the sandbox accepts', async () => {
    const res = await request(
      `${portal.url}/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001`,
    );
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(await res.body.json())).toBe(true);
  });
});
