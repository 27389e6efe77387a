import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  requisitionImportPath,
  startCaptureUpstream,
  testCredentials,
  type CaptureUpstream,
} from '@/test-support/capture-upstream';
import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { buildServer } from '../../scripts/build-cli';
import { REPLAYED_HEADER } from './proxy/vms-proxy';

/*
 * Two portal processes (the built server, each its own node) on one
 * PostgreSQL behave as one. The same keyed batch sent to both reaches the VMS once; a session
 * made on one is valid on the other, and signing out on one ends it on both.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, 'build'), { recursive: true });
const dir = mkdtempSync(join(root, 'build', '.test-two-'));
const password = 'two processes, one database';

let upstream: CaptureUpstream;
let databaseUrl: string;
const children: ChildProcess[] = [];
let first: string;
let second: string;

async function startProcess(main: string): Promise<string> {
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      VMS_BASE_URL: upstream.url,
      VMS_API_KEY: testCredentials.apiKey,
      VMS_API_SECRET: testCredentials.apiSecret,
      VMS_CLIENT_ORGS: '1001,1002',
      VMS_VENDOR_ORG_ID: '9001',
      VMS_TIMEOUT_MS: '10000',
      DATABASE_URL: databaseUrl,
      PORTAL_DB: join(dir, 'unused.db'),
      AUTH: 'on',
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /VMS submission portal: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
}

beforeAll(async () => {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl) throw new Error(`${postgresEnvName} is unset: the global setup starts PostgreSQL`);
  databaseUrl = createTestDatabase(adminUrl);
  upstream = await startCaptureUpstream();
  const main = await buildServer(join(dir, 'server'));
  // Both start at once: the migrations take turns (an advisory lock), neither fails.
  [first, second] = await Promise.all([startProcess(main), startProcess(main)]);
  await addUser({ databaseUrl }, 'ada@example.com', password, 'recruiter', [1001]);
}, 60_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await upstream?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two portal processes on one PostgreSQL', () => {
  it('report the same database in their health', async () => {
    for (const url of [first, second]) {
      const health = (await (await fetch(`${url}/api/health`)).json()) as unknown;
      expect(health).toMatchObject({
        status: 'ok',
        database: { kind: 'postgres', schemaVersion: expect.any(Number) },
      });
    }
  });

  it('send a keyed batch to the VMS once when it reaches both, even at the same moment', async () => {
    upstream.requests.length = 0;
    let accepted = 0;
    upstream.respondWith(() => {
      accepted += 1;
      return {
        status: 202,
        delayMs: 700,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ batchid: `batch-${accepted}`, received: 1 }),
      };
    });
    const a = new TestBrowser(first);
    expect((await a.signIn('ada@example.com', password)).status).toBe(200);
    const b = new TestBrowser(second);
    for (const [name, value] of a.cookies) b.cookies.set(name, value);
    b.csrfToken = a.csrfToken;

    const batch = [{ titlerole: 'Welder', clientinternalreq: 'TWO-PROC-1' }];
    const headers = { 'idempotency-key': '7d1c9a52-1b7e-4c38-9a0e-3f5b2c8d6e41' };
    const [one, two] = await Promise.all([
      a.call('POST', requisitionImportPath, { body: batch, headers }),
      b.call('POST', requisitionImportPath, { body: batch, headers }),
    ]);
    expect(upstream.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect([one.status, two.status]).toEqual([202, 202]);
    expect(one.json()).toEqual({ batchid: 'batch-1', received: 1 });
    expect(two.json()).toEqual({ batchid: 'batch-1', received: 1 });
    // Exactly one of them went to the VMS; the other is the remembered answer.
    expect([one.headers[REPLAYED_HEADER], two.headers[REPLAYED_HEADER]].sort()).toEqual([
      'true',
      undefined,
    ]);

    // Later, on either process: the remembered answer, still one call.
    const later = await b.call('POST', requisitionImportPath, { body: batch, headers });
    expect(later.status).toBe(202);
    expect(later.headers[REPLAYED_HEADER]).toBe('true');
    expect(upstream.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('share sessions: made on one, valid on the other, and ended on both by signing out on one', async () => {
    const a = new TestBrowser(first);
    expect((await a.signIn('ada@example.com', password)).status).toBe(200);
    const b = new TestBrowser(second);
    for (const [name, value] of a.cookies) b.cookies.set(name, value);
    expect((await b.session()).user).toMatchObject({ email: 'ada@example.com', role: 'recruiter' });

    expect((await b.call('DELETE', '/api/session')).status).toBeLessThan(300);
    expect((await a.session()).user).toBeNull();
  });
});
