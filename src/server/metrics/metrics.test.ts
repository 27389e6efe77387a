import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { testStoreEnv } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';
import { parseScrape, sampleValue, type Scrape } from './scrape-text';

/*
 * The metrics of a real portal with its embedded sandbox VMS, over HTTP: a batch sent through the
 * proxy and sign-ins, then a scrape of each port, which must show every family with the values
 * those calls make, and nothing secret.
 */

const token = 'metrics-token-3f9a1c7e5b2d4a6f';
const password = 'correct horse battery staple';
const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const onPostgres = process.env.PORTAL_TEST_STORE === 'postgres';

let dir: string;
let portal: RunningPortal;
let log = '';
let metricsPortUrl: string;
const browser = () => new TestBrowser(portal.url);

async function scrape(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { headers });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

async function scrapeWithToken(url = metricsPortUrl): Promise<Scrape> {
  const answer = await scrape(url, { authorization: `Bearer ${token}` });
  expect(answer.status).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseScrape(answer.text);
}

/** Scrapes until `ready` holds (the journal writes on a later turn), at most a few seconds. */
async function scrapeUntil(ready: (scrape: Scrape) => boolean): Promise<Scrape> {
  for (let attempt = 0; ; attempt += 1) {
    const seen = await scrapeWithToken();
    if (ready(seen) || attempt >= 50) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-metrics-'));
  const portalDb = join(dir, 'portal.db');
  portal = await startPortal(
    loadConfig(
      testStoreEnv({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: ':memory:',
        SANDBOX_PROCESSING_DELAY_MS: '0',
        PORTAL_DB: portalDb,
        LOG_LEVEL: 'info',
        AUTH: 'on',
        METRICS_PORT: '0',
        METRICS_TOKEN: token,
      }),
    ),
    {
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          log += chunk.toString('utf8');
          done();
        },
      }),
    },
  );
  const listening = log
    .split('\n')
    .filter((line) => line.includes('"metrics_listen"'))
    .map((line) => JSON.parse(line) as { url: string });
  expect(listening).toHaveLength(1);
  metricsPortUrl = listening[0]?.url ?? '';
  await addUser(portalDb, 'ada@example.com', password, 'recruiter', [1001]);
});

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the metrics after a batch and sign-ins', () => {
  it('shows each family with the values the calls made', async () => {
    // Six failed sign-ins for a name that is no account: five failures, then a lockout.
    const stranger = browser();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const answer = await stranger.signIn('nobody@example.com', 'not the password');
      expect(answer.status).toBe(attempt < 5 ? 401 : 429);
    }
    const ada = browser();
    expect((await ada.signIn('ada@example.com', 'a wrong password')).status).toBe(401);
    expect((await ada.signIn('ada@example.com', password)).status).toBe(200);

    const items = [requisitionInsert(), requisitionInsert(), requisitionInsert()];
    const key = randomUUID();
    const sent = await ada.call('POST', `/api/vms/requisitionimport${orgs}`, {
      body: items,
      headers: { 'idempotency-key': key },
    });
    expect(sent.status).toBe(202);

    const first = await scrapeUntil(
      (seen) => (sampleValue(seen, 'vms_portal_journal_writes_total') ?? 0) >= 1,
    );
    const call = { connection: 'sandbox', operation: 'requisitionimport', status: '202' };
    expect(sampleValue(first, 'vms_portal_vms_calls_total', call)).toBe(1);
    expect(sampleValue(first, 'vms_portal_vms_call_duration_seconds_count', call)).toBe(1);
    expect(sampleValue(first, 'vms_portal_vms_call_duration_seconds_sum', call)).toBeGreaterThan(0);
    expect(
      sampleValue(first, 'vms_portal_vms_call_duration_seconds_bucket', { ...call, le: '+Inf' }),
    ).toBe(1);
    const batch = { connection: 'sandbox', operation: 'requisitionimport', outcome: '2xx' };
    expect(sampleValue(first, 'vms_portal_batches_sent_total', batch)).toBe(1);
    expect(sampleValue(first, 'vms_portal_batch_items_sent_total', batch)).toBe(items.length);
    expect(
      sampleValue(first, 'vms_portal_idempotency_outcomes_total', { outcome: 'forwarded' }),
    ).toBe(1);
    expect(
      sampleValue(first, 'vms_portal_sign_ins_total', { outcome: 'failure', method: 'password' }),
    ).toBe(6);
    expect(
      sampleValue(first, 'vms_portal_sign_ins_total', {
        outcome: 'locked_out',
        method: 'password',
      }),
    ).toBe(1);
    expect(
      sampleValue(first, 'vms_portal_sign_ins_total', { outcome: 'success', method: 'password' }),
    ).toBe(1);
    expect(
      sampleValue(first, 'vms_portal_http_requests_total', {
        method: 'POST',
        route: '/api/vms/requisitionimport',
        status: '202',
      }),
    ).toBe(1);
    expect(
      sampleValue(first, 'vms_portal_http_requests_total', {
        method: 'POST',
        route: '/api/session',
        status: '401',
      }),
    ).toBe(6);
    // Routes are patterns: no query string, no id, ever.
    for (const sample of first.samples.filter((s) => s.labels.route !== undefined)) {
      expect(sample.labels.route).not.toMatch(/[?=]/);
    }
    expect(sampleValue(first, 'vms_portal_journal_entries')).toBeGreaterThanOrEqual(1);
    expect(sampleValue(first, 'vms_portal_journal_bytes')).toBeGreaterThan(0);
    expect(sampleValue(first, 'vms_portal_journal_backlog')).toBeGreaterThanOrEqual(0);
    expect(first.types.get('vms_portal_journal_unrecorded_total')).toBe('counter');
    expect(sampleValue(first, 'vms_portal_journal_unrecorded_total')).toBe(0);
    expect(first.types.get('vms_portal_journal_held_total')).toBe('counter');
    expect(sampleValue(first, 'vms_portal_journal_held_total')).toBe(0);
    expect(first.types.get('vms_portal_journal_pruned_total')).toBe('counter');
    expect(
      sampleValue(first, 'vms_portal_db_query_duration_seconds_count', {
        store: 'idempotencyKeys',
        operation: 'insertInFlight',
      }),
    ).toBe(1);
    expect(
      sampleValue(first, 'vms_portal_db_query_duration_seconds_count', {
        store: 'journal',
        operation: 'write',
      }),
    ).toBeGreaterThanOrEqual(1);
    // PostgreSQL's pool, where there is one; SQLite has none to show.
    const poolTotal = sampleValue(first, 'vms_portal_db_pool_connections', { state: 'total' });
    if (onPostgres) expect(poolTotal).toBeGreaterThan(0);
    else expect(poolTotal).toBeUndefined();
    // Node's own process metrics, under the same prefix.
    expect(sampleValue(first, 'vms_portal_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sampleValue(first, 'vms_portal_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(first.types.get('vms_portal_nodejs_eventloop_lag_seconds')).toBe('gauge');

    // The same batch again: a remembered answer, counted as replayed and not as a second send.
    const again = await ada.call('POST', `/api/vms/requisitionimport${orgs}`, {
      body: items,
      headers: { 'idempotency-key': key },
    });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const second = await scrapeWithToken();
    expect(
      sampleValue(second, 'vms_portal_idempotency_outcomes_total', { outcome: 'replayed' }),
    ).toBe(1);
    expect(sampleValue(second, 'vms_portal_batches_sent_total', batch)).toBe(1);
    expect(sampleValue(second, 'vms_portal_vms_calls_total', call)).toBe(2);

    // The portal's own port serves the same registry to a scraper with the token.
    const onPortalPort = await scrapeWithToken(`${portal.url}/metrics`);
    expect(sampleValue(onPortalPort, 'vms_portal_batches_sent_total', batch)).toBe(1);
  });

  it('shows no credential, token, password, address or key', async () => {
    const ada = browser();
    await ada.signIn('ada@example.com', password);
    const key = randomUUID();
    await ada.call('POST', `/api/vms/requisitionimport${orgs}`, {
      body: [requisitionInsert()],
      headers: { 'idempotency-key': key },
    });
    for (const url of [metricsPortUrl, `${portal.url}/metrics`]) {
      const { text } = await scrape(url, { authorization: `Bearer ${token}` });
      for (const secret of [
        sandboxDemo.apiKey,
        sandboxDemo.apiSecret,
        token,
        password,
        'ada@example.com',
        'nobody@example.com',
        key,
        ...ada.cookies.values(),
      ]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(log).not.toContain(token);
  });
});

describe('who may scrape', () => {
  it('refuses the portal port without the token, or with a wrong one, with 401', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token-0000000000' },
      { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` },
      { authorization: `Bearer ${token}x` },
    ]) {
      const answer = await scrape(`${portal.url}/metrics`, headers);
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(answer.text).not.toContain('vms_portal_');
      expect(answer.text).not.toContain(token);
    }
  });

  it('refuses the metrics port without the token when one is set, and serves nothing else', async () => {
    expect((await scrape(metricsPortUrl)).status).toBe(401);
    const other = await scrape(metricsPortUrl.replace('/metrics', '/api/health'), {
      authorization: `Bearer ${token}`,
    });
    expect(other.status).toBe(404);
  });

  it('serves nothing at /metrics, and opens no port, when neither setting is given', async () => {
    const plain = await startPortal(
      loadConfig(
        testStoreEnv({
          PORT: '0',
          SANDBOX_PORT: '0',
          SANDBOX_DB: ':memory:',
          PORTAL_DB: ':memory:',
          LOG_LEVEL: 'silent',
        }),
      ),
    );
    try {
      const answer = await scrape(`${plain.url}/metrics`, {
        accept: 'text/plain',
        authorization: `Bearer ${token}`,
      });
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain('vms_portal_');
    } finally {
      await plain.close();
    }
  });
});
