import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from './config';
import { startPortal, type RunningPortal } from './start';

/*
 * A VMS that signs a formatted UTC time sent in a header: the portal signs each call through its
 * proxy, the embedded sandbox in the same profile verifies it, over HTTP on both sides. The
 * signatures expected here are made by hand from node:crypto, the time written by `Date`'s UTC
 * getters, not through the pattern module.
 */

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';

/** The example of docs/configuration.md ("Dates and times"): the profile these tests run. */
function documentedProfile(): { signature: Record<string, unknown> } {
  const doc = readFileSync('docs/configuration.md', 'utf8');
  const block = [...doc.matchAll(/```json\n([\s\S]*?)```/g)].find((match) =>
    (match[1] ?? '').includes('"YYYYMMDDHHmmss"'),
  );
  return JSON.parse(block?.[1] ?? '{}') as { signature: Record<string, unknown> };
}

const { signature } = documentedProfile();
let dir: string;
let portal: RunningPortal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-signature-pattern-'));
  const profileFile = join(dir, 'profile.json');
  writeFileSync(profileFile, JSON.stringify({ signature }));
  const config = loadConfig({
    PORT: '0',
    SANDBOX_PORT: '0',
    SANDBOX_DB: join(dir, 'sandbox.db'),
    PORTAL_DB: join(dir, 'portal.db'),
    VMS_PROFILE: profileFile,
    LOG_LEVEL: 'silent',
  });
  portal = await startPortal(config, { sandbox: { processingDelayMs: 0 } });
});

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

const two = (value: number) => String(value).padStart(2, '0');

/** `at` as YYYYMMDDHHmmss in UTC, by hand. */
function compact(at: Date): string {
  return (
    String(at.getUTCFullYear()) +
    two(at.getUTCMonth() + 1) +
    two(at.getUTCDate()) +
    two(at.getUTCHours()) +
    two(at.getUTCMinutes()) +
    two(at.getUTCSeconds())
  );
}

async function upstream(timestamp: string) {
  const res = await request(`${portal.upstreamUrl}/requisitions?${orgs}`, {
    headers: {
      'x-api-key': sandboxDemo.apiKey,
      'x-timestamp': timestamp,
      'x-signature': createHash('sha256')
        .update(sandboxDemo.apiKey + sandboxDemo.apiSecret + timestamp)
        .digest('hex'),
    },
  });
  await res.body.text();
  return res.statusCode;
}

describe('a signature over a pattern timestamp sent in a header', () => {
  it('is made by the portal and accepted by the sandbox', async () => {
    expect(signature).toMatchObject({ timestamp: { travel: { header: 'x-timestamp' } } });
    const res = await request(`${portal.url}/api/vms/requisitions?${orgs}`);
    const text = await res.body.text();
    expect(res.statusCode, text).toBe(200);
    expect(Array.isArray(JSON.parse(text))).toBe(true);
  });

  it('is verified by the sandbox as the pattern writes it, in UTC, within its window', async () => {
    const now = Date.now();
    expect(await upstream(compact(new Date(now - 60_000)))).toBe(200);
    // The same instant in another form, or a real time outside the window: refused.
    const iso = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect(await upstream(iso)).toBe(403);
    expect(await upstream(compact(new Date(now - 600_000)))).toBe(403);
    // The time an hour ahead, as a signer in another zone would write its wall clock.
    expect(await upstream(compact(new Date(now + 3_600_000)))).toBe(403);
  });
});

describe('a pattern timestamp the pattern module does not read', () => {
  it('stops the server with one line naming the key and what is wrong', () => {
    const profileFile = join(dir, 'wrong.json');
    writeFileSync(
      profileFile,
      JSON.stringify({ signature: { ...signature, timestamp: { form: 'YYYYMMDDHHmmsss' } } }),
    );
    let message = '';
    try {
      loadConfig({ VMS_PROFILE: profileFile, LOG_LEVEL: 'silent' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `VMS_PROFILE (${profileFile}) is not a usable profile: signature.timestamp.form must be ` +
        'unix-seconds, unix-milliseconds, iso-8601 or a date-time pattern such as YYYYMMDDHHmmss ' +
        '(UTC): "YYYYMMDDHHmmsss" has "sss", which is no token (YYYY MM M DD D HH H hh h A mm ss ' +
        'SSS; other letters go in [brackets]).',
    );
  });
});
