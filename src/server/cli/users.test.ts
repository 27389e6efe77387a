import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionStateSchema } from '@/domain/auth';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { testStoreEnv } from '@/test-support/postgres-server';
import { TestBrowser } from '@/test-support/test-browser';
import { queryTestDatabase } from '@/test-support/test-database';
import { tsxEnv, tsxLoader } from '@/test-support/tsx-child';
import { runUsersCli, type UsersCliIo } from './users';

// Accounts made and managed from the command line, on the portal's database.

const root = fileURLToPath(new URL('../../..', import.meta.url));
const password = 'correct horse battery staple';

let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-users-cli-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath }));
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(
  argv: string[],
  options: Partial<UsersCliIo> & { env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runUsersCli(argv, {
    env: testStoreEnv({ PORTAL_DB: dbPath, ...options.env }),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    readStdin: options.readStdin ?? (async () => ''),
    askHidden: options.askHidden ?? null,
  });
  return { code, stdout, stderr };
}

/** The real command, as `npm run users -- …` runs it (tsx), with the password on stdin. */
function npmRunUsers(
  args: string[],
  stdin: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', tsxLoader, join(root, 'src/server/cli/users-main.ts'), ...args],
      {
        cwd: dir,
        env: { ...process.env, ...tsxEnv, ...testStoreEnv({ PORTAL_DB: dbPath }) },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

describe('npm run users', () => {
  it('adds an admin with the password from stdin, who can then sign in', async () => {
    const added = await npmRunUsers(
      ['add', '--role', 'admin', '--password-stdin', 'Alice@Example.com'],
      `${password}\n`,
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('alice@example.com\tadmin\tall orgs\tactive');
    expect(added.stdout).not.toContain(password);
    const [row] = await queryTestDatabase<{ hash: string }>(
      dbPath,
      `SELECT password_hash AS hash FROM users WHERE email = 'alice@example.com'`,
    );
    // argon2id with OWASP's first parameters (19 MiB, 2 passes, 1 lane), its own salt.
    expect(row?.hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const browser = new TestBrowser(portal.url);
    const answer = await browser.signIn('alice@example.com', password);
    expect(sessionStateSchema.parse(answer.json()).user).toMatchObject({
      role: 'admin',
      clientOrgIds: [1001, 1002],
    });
  });

  it('asks for the password twice without echo when there is a terminal', async () => {
    const asked: string[] = [];
    const added = await cli(['add', '--role', 'qa', '--org', '1002', 'quinn@example.com'], {
      askHidden: async (question) => {
        asked.push(question);
        return password;
      },
    });
    expect(added.code).toBe(0);
    expect(asked).toHaveLength(2);
    const differ = await cli(['add', 'other@example.com'], {
      askHidden: async (question) =>
        question.includes('again') ? 'not the same at all' : password,
    });
    expect(differ).toMatchObject({ code: 1, stderr: expect.stringContaining('differ') });
    expect((await cli(['add', 'x@example.com'])).stderr).toContain('--password-stdin');
  });

  it('refuses short passwords, taken addresses, foreign orgs and bad usage', async () => {
    const stdin = (text: string) => ({ readStdin: async () => text });
    expect(await cli(['add', '--password-stdin', 'b@example.com'], stdin('short'))).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('at least 12 characters'),
    });
    expect(
      await cli(['add', '--password-stdin', 'alice@example.com'], stdin(password)),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining('already an account') });
    expect(
      await cli(['add', '--org', '666', '--password-stdin', 'c@example.com'], stdin(password)),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining('666') });
    expect((await cli(['remove', 'a@example.com'])).code).toBe(2);
    expect((await cli(['add', '--role', 'boss', 'a@example.com'])).code).toBe(2);
    expect((await cli([])).stderr).toContain('usage: npm run users');
  });

  it('prints an invite link for a new or existing user, which sets the password once', async () => {
    const invited = await cli(
      ['invite', '--role', 'recruiter', '--org', '1001', 'rita@example.com'],
      {
        env: { PORTAL_PUBLIC_URL: 'https://portal.example.com' },
      },
    );
    expect(invited.code).toBe(0);
    const link = /https:\/\/portal\.example\.com(\/invite\/[A-Za-z0-9_-]{43})/.exec(invited.stdout);
    expect(link).not.toBeNull();
    const browser = new TestBrowser(portal.url);
    const accepted = await browser.call('POST', `/api/invites/${link?.[1]?.slice(8)}`, {
      body: { password },
    });
    expect(sessionStateSchema.parse(accepted.json()).user?.email).toBe('rita@example.com');
  });

  it('lists, disables (ending sessions) and enables', async () => {
    const browser = new TestBrowser(portal.url);
    await browser.signIn('quinn@example.com', password);
    const list = await cli(['list']);
    expect(list.stdout.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^alice@example\.com\tadmin\tall orgs\tactive\tlast sign-in: \d{4}-/),
      expect.stringMatching(/^quinn@example\.com\tqa\t1002\tactive/),
      expect.stringMatching(/^rita@example\.com\trecruiter\t1001\tactive/),
    ]);
    const disabled = await cli(['disable', 'quinn@example.com']);
    expect(disabled.stdout).toBe('Disabled quinn@example.com (1 session ended)\n');
    expect((await browser.session()).user).toBeNull();
    expect((await cli(['list'])).stdout).toContain('quinn@example.com\tqa\t1002\tdisabled');
    expect((await cli(['enable', 'quinn@example.com'])).code).toBe(0);
    expect((await browser.signIn('quinn@example.com', password)).status).toBe(200);
    expect((await cli(['disable', 'nobody@example.com'])).code).toBe(1);
  });

  it('reads one line from --password-stdin: typed twice or ended by CRLF, the password signs in', async () => {
    for (const [email, stdin] of [
      // printf 'pw\npw\n' | npm run users -- add --password-stdin …: confirmation, out of habit.
      ['dan@example.com', `${password}\n${password}\n`],
      ['eve@example.com', `${password}\r\n`],
    ] as const) {
      const added = await npmRunUsers(['add', '--password-stdin', email], stdin);
      expect(added.stderr).toBe('');
      expect(added.code).toBe(0);
      expect((await new TestBrowser(portal.url).signIn(email, password)).status).toBe(200);
    }
  });
});
