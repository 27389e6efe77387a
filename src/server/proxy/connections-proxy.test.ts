import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalPageSchema } from '@/domain/journal';
import {
  profilePresets,
  readProfile,
  sandboxProfile,
  vmsCallPath,
  type VmsProfile,
} from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { requisitionInsert } from '@/test-support/test-data';

/*
 * One portal, two VMS connections: the embedded sandbox in the portal's own dialect (the default),
 * and a second sandbox, flagged production, that speaks another profile in every group. A call
 * names its connection with X-Vms-Connection; each goes to its own VMS, signed its own way, and
 * the journal says which.
 */

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';
let dir: string;
let portal: RunningPortal;
let other: RunningSandbox;

async function call(
  method: 'GET' | 'POST',
  path: string,
  options: { connection?: string; body?: unknown; key?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.connection !== undefined) headers['x-vms-connection'] = options.connection;
  if (options.key !== undefined) headers['idempotency-key'] = options.key;
  const res = await request(`${portal.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: () => JSON.parse(text) as unknown };
}

const profilePath = 'docs/examples/profile-other-vms.json';

/** The documented example profile, as a connection reads it. */
function otherProfile(): VmsProfile {
  const reading = readProfile(JSON.parse(readFileSync(profilePath, 'utf8')), profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  return reading.profile;
}

/** How often a sandbox's list mentions `title`, asked of it directly (no portal between). */
async function titlesAt(
  sandbox: { url: string },
  title: string,
  profile: VmsProfile | null,
): Promise<number> {
  const recipe = (profile ?? sandboxProfile('YYYY-MM-DD')).signature;
  const signed = signRequest(recipe, { apiKey: sandboxDemo.apiKey, secret: sandboxDemo.apiSecret });
  const query = `?${orgs}`;
  const path =
    profile === null ? `requisitions${query}` : vmsCallPath(profile, 'requisitions', query);
  const url = new URL(path, `${sandbox.url}/`);
  for (const [name, value] of Object.entries(signed.query)) url.searchParams.set(name, value);
  const res = await request(url, { headers: signed.headers });
  return (await res.body.text()).split(title).length - 1;
}

let profile: VmsProfile;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-two-connections-'));
  profile = otherProfile();
  other = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    dbPath: join(dir, 'other-sandbox.db'),
    profile,
    dateFormat: profile.dates.outbound,
    processingDelayMs: 0,
  });
  writeFileSync(
    join(dir, 'connections.json'),
    JSON.stringify({
      connections: [
        { name: 'sandbox', label: 'Sandbox', sandbox: true, processingDelayMs: 0 },
        {
          name: 'live',
          label: 'Acme live',
          baseUrl: other.url,
          apiKeyEnv: 'LIVE_KEY',
          apiSecretEnv: 'LIVE_SECRET',
          clientOrgs: [{ id: 1001, name: 'Northwind Health' }],
          vendorOrgId: 9001,
          profile: join(process.cwd(), profilePath),
          production: true,
        },
      ],
      default: 'sandbox',
    }),
  );
  const config = loadConfig({
    PORT: '0',
    SANDBOX_PORT: '0',
    SANDBOX_DB: join(dir, 'sandbox.db'),
    PORTAL_DB: join(dir, 'portal.db'),
    VMS_CONNECTIONS: join(dir, 'connections.json'),
    LIVE_KEY: sandboxDemo.apiKey,
    LIVE_SECRET: sandboxDemo.apiSecret,
    LOG_LEVEL: 'silent',
  });
  portal = await startPortal(config);
});

afterAll(async () => {
  await portal?.close();
  await other?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two connections', () => {
  it('sends each batch to the VMS its call names, and a call naming none to the default', async () => {
    const toLive = requisitionInsert({
      titlerole: 'Okapi keeper',
      startdate: '02/01/2027',
      enddate: '07/30/2027',
    });
    const toSandbox = requisitionInsert({ titlerole: 'Quokka keeper' });

    const live = await call('POST', `/api/vms/requisitionimport?${orgs}`, {
      connection: 'live',
      body: [toLive],
      key: 'two-connections-live-1',
    });
    // Each VMS's own success status: the other profile accepts with 200, the sandbox with 202.
    expect(live.status).toBe(200);
    const unnamed = await call('POST', `/api/vms/requisitionimport?${orgs}`, {
      body: [toSandbox],
      key: 'two-connections-default-1',
    });
    expect(unnamed.status).toBe(202);

    // Each VMS holds only its own: asked directly, each in its own dialect and signature.
    await expect.poll(() => titlesAt(other, 'Okapi keeper', profile)).toBe(1);
    expect(await titlesAt(other, 'Quokka keeper', profile)).toBe(0);
    expect(await titlesAt({ url: portal.upstreamUrl }, 'Quokka keeper', null)).toBe(1);
    expect(await titlesAt({ url: portal.upstreamUrl }, 'Okapi keeper', null)).toBe(0);

    // The journal says which connection each went to, and lists one connection's calls alone.
    const journal = async (query: string) =>
      journalPageSchema.parse((await call('GET', `/api/journal?${query}`)).json()).entries;
    const liveCalls = await journal('connection=live&method=POST');
    expect(liveCalls.map((entry) => entry.idempotencyKey)).toEqual(['two-connections-live-1']);
    expect(liveCalls[0]?.connection).toBe('live');
    const sandboxCalls = await journal('connection=sandbox&method=POST');
    expect(sandboxCalls.map((entry) => entry.idempotencyKey)).toEqual([
      'two-connections-default-1',
    ]);
  });

  it('answers the same key on another connection as a conflict, never with the first answer', async () => {
    const item = requisitionInsert({ titlerole: 'Tapir keeper' });
    const first = await call('POST', `/api/vms/requisitionimport?${orgs}`, {
      connection: 'sandbox',
      body: [item],
      key: 'two-connections-shared-key',
    });
    expect(first.status).toBe(202);
    const again = await call('POST', `/api/vms/requisitionimport?${orgs}`, {
      connection: 'live',
      body: [item],
      key: 'two-connections-shared-key',
    });
    expect(again.status).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'idempotency_conflict' } });
    expect(await titlesAt(other, 'Tapir keeper', profile)).toBe(0);
  });

  it('refuses a connection the portal does not have, naming those it has, and sends nothing', async () => {
    const res = await call('GET', `/api/vms/requisitions?${orgs}`, { connection: 'uat' });
    expect(res.status).toBe(404);
    const { error } = res.json() as { error: { code: string; message: string } };
    expect(error.code).toBe('unknown_connection');
    expect(error.message).toContain('"uat"');
    expect(error.message).toContain('sandbox, live');
    // Refused calls are journaled with the connection they named.
    const page = journalPageSchema.parse(
      (await call('GET', '/api/journal?status=refused&operation=requisitions')).json(),
    );
    expect(page.entries[0]).toMatchObject({ connection: 'uat', status: 404 });
  });
});
