import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiTokenSummarySchema,
  createdApiTokenSchema,
  type ApiTokenScope,
} from '../domain/api-tokens';
import { loadConfig } from '../server/config';
import { startPortal, type RunningPortal } from '../server/start';
import { testStoreEnv } from '../test-support/postgres-server';
import { addUser, TestBrowser } from '../test-support/test-browser';
import { requisitionInsert } from '../test-support/test-data';
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
    const withFlag = await main(['run', suiteFile, '--portal', portal.url, '--token', secret], {});
    expect(withFlag).toMatchObject({ code: 0, stderr: '' });
    expect(withFlag.stdout).toContain('smoke: 1 passed, 0 failed');
    const fromEnv = await main(['run', suiteFile, '--portal', portal.url, '--json'], {
      VMS_PORTAL_TOKEN: secret,
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

  it('exits 2 with one line without a token, and with a token whose scope stops at the suite API', async () => {
    const none = await main(['run', suiteFile, '--portal', portal.url], {});
    expect(none.code).toBe(2);
    expect(none.stderr.trimEnd().split('\n')).toEqual([
      `suite: the portal at ${portal.url} needs sign-in (401): pass --token or set VMS_PORTAL_TOKEN to a personal API token from your Account page`,
    ]);

    const { secret } = await makeToken('suites only', 'suites');
    const narrow = await main(['run', suiteFile, '--portal', portal.url, '--token', secret], {});
    expect(narrow.code).toBe(2);
    expect(narrow.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(narrow.stderr).toMatch(
      /^suite: the portal refused the API token \(403\): This API token \("suites only"\) has the scope "suites"/,
    );
  });
});
