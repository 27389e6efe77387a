import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiTokenSummarySchema,
  createdApiTokenSchema,
  type ApiTokenScope,
} from '@/domain/api-tokens';
import { journalPageSchema } from '@/domain/journal';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { testStoreEnv } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';
import { main } from './suite';

/*
 * `npm run suite -- run` against a real portal with sign-in on and its sandbox: a personal API
 * token of scope suites-and-sends, given with --token or VMS_PORTAL_TOKEN, runs the file's suite
 * as its owner (exit 0); no token, a revoked one or one whose scope stops at the suite API ends
 * the run at once with exit 2 and one line on stderr that says why, never a stack.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const password = 'correct horse battery staple';

let dir: string;
let portal: RunningPortal;
let quinn: TestBrowser;
let suiteFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'suite-token-'));
  const portalDb = join(dir, 'portal.db');
  portal = await startPortal(
    loadConfig(
      testStoreEnv({
        PORT: '0',
        AUTH: 'on',
        SANDBOX_PORT: '0',
        SANDBOX_DB: join(dir, 'sandbox.db'),
        PORTAL_DB: portalDb,
        SANDBOX_PROCESSING_DELAY_MS: '0',
        LOG_LEVEL: 'silent',
      }),
    ),
  );
  await addUser(portalDb, 'quinn@example.com', password, 'qa', [1001]);
  quinn = new TestBrowser(portal.url);
  expect((await quinn.signIn('quinn@example.com', password)).status).toBe(200);
  suiteFile = join(dir, 'smoke.json');
  writeFileSync(
    suiteFile,
    JSON.stringify({
      name: 'smoke',
      cases: [
        {
          id: 'create-req',
          name: 'a complete requisition is accepted',
          kind: 'requisition',
          item: requisitionInsert({ clientinternalreq: 'TOKEN-{{run.id}}' }),
          expect: { status: 'Success' },
        },
      ],
    }),
  );
});

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

async function makeToken(name: string, scope: ApiTokenScope) {
  const answer = await quinn.call('POST', '/api/tokens', { body: { name, scope } });
  expect(answer.status).toBe(201);
  return createdApiTokenSchema.parse(answer.json());
}

/** The command as CI runs it: its own process, its exit code and its output. */
function runCommand(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(root, 'src/cli/suite.ts'), ...args],
      { cwd: root, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('npm run suite -- run, on a portal with sign-in on', () => {
  it('runs the suite with a suites-and-sends token, from --token or VMS_PORTAL_TOKEN', async () => {
    const { secret } = await makeToken('CI run', 'suites-and-sends');
    const withFlag = await main(['run', suiteFile, '--portal', portal.url, '--token', secret], {
      env: {},
    });
    expect(withFlag).toMatchObject({ code: 0, stderr: '' });
    expect(withFlag.stdout).toContain('smoke: 1 passed, 0 failed');
    const fromEnv = await main(['run', suiteFile, '--portal', portal.url, '--json'], {
      env: { VMS_PORTAL_TOKEN: secret },
    });
    expect(fromEnv.code).toBe(0);
    expect(JSON.parse(fromEnv.stdout)).toMatchObject({ passed: 1, failed: 0 });
  });

  it('exits 2 with one line when the token was revoked, and no stack', async () => {
    const { secret, token } = await makeToken('revoked CI', 'suites-and-sends');
    const revoked = await quinn.call('DELETE', `/api/tokens/${token.id}`);
    expect(revoked.status).toBe(200);
    const revokedOn = apiTokenSummarySchema.parse(revoked.json()).revokedAt?.slice(0, 10);
    const result = await runCommand(['run', suiteFile, '--portal', portal.url], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `suite: the portal refused the API token (401): This API token ("revoked CI") was revoked on ${revokedOn}; make a new one on your Account page (/account).\n`,
    );
  });

  it('exits 2 with one line without a token', async () => {
    const none = await main(['run', suiteFile, '--portal', portal.url], { env: {} });
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr.trimEnd().split('\n')).toEqual([
      `suite: the portal at ${portal.url} needs sign-in (401): pass --token or set VMS_PORTAL_TOKEN to a personal API token from your Account page`,
    ]);
  });

  it("runs with a token of scope suites alone: the portal sends the batches, as the token's owner", async () => {
    const { secret } = await makeToken('suites only', 'suites');
    const result = await main(['run', suiteFile, '--portal', portal.url, '--json'], {
      env: { VMS_PORTAL_TOKEN: secret },
    });
    expect(result.code).toBe(0);
    const run = JSON.parse(result.stdout) as { id: number; passed: number; failed: number };
    expect(run).toMatchObject({ passed: 1, failed: 0 });
    // The same token reaches no batch of its own through the proxy.
    const direct = await fetch(`${portal.url}/api/vms/requisitions?Client_Org_Id=1001`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(direct.status).toBe(403);
    // The run's calls are journaled under quinn, who owns the token.
    const calls = await quinn.call('GET', `/api/journal?run=${run.id}`);
    expect(calls.status).toBe(200);
    const { entries } = journalPageSchema.parse(calls.json());
    expect(entries.length).toBeGreaterThan(0);
    expect(new Set(entries.map((entry) => entry.sentBy?.email))).toEqual(
      new Set(['quinn@example.com']),
    );
  });

  it('exits 1 when a case fails, with JUnit XML that carries why', async () => {
    const { secret } = await makeToken('nightly', 'suites');
    const failing = join(dir, 'failing.json');
    const suite = JSON.parse(readFileSync(suiteFile, 'utf8')) as { cases: object[] };
    writeFileSync(
      failing,
      JSON.stringify({
        name: 'expects a refusal',
        cases: suite.cases.map((entry) => ({ ...entry, expect: { status: 'Error' } })),
      }),
    );
    const junit = join(dir, 'failing.xml');
    const result = await main(['run', failing, '--portal', portal.url, '--junit', junit], {
      env: { VMS_PORTAL_TOKEN: secret },
    });
    expect(result.code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="expects a refusal" tests="1" failures="1"/);
    expect(xml).toMatch(
      /<testcase classname="expects a refusal" name="a complete requisition is accepted" time="[\d.]+">\s*<failure message="expected Error, got Success">/,
    );
  });
});
