import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReportSchema } from '@/domain/connection-check';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { freePort } from '@/server/free-port';
import { tempDbPath } from '@/test-support/sandbox-client';
import { main as doctor, type Io } from './doctor';

/*
 * `npm run doctor` checking a connection: the exit codes through main(), and once as the real
 * command. The VMS is the embedded sandbox the command starts itself (VMS_BASE_URL unset), or a
 * sandbox started here and named by VMS_BASE_URL, or an address where nothing listens.
 */

const io = (env: Record<string, string> = {}, more: Partial<Io> = {}): Io => ({
  env,
  readStdin: () => Promise.resolve(''),
  ...more,
});

const oneLine = (text: string) => {
  expect(text.trimEnd().split('\n')).toHaveLength(1);
  return text;
};

/** The settings of a remote VMS at `url`, with the sandbox's demo identity. */
const remote = (url: string): Record<string, string> => ({
  VMS_BASE_URL: url,
  VMS_API_KEY: sandboxDemo.apiKey,
  VMS_API_SECRET: sandboxDemo.apiSecret,
  VMS_CLIENT_ORGS: sandboxDemo.clientOrgIds.join(','),
  VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
});

let behind: RunningSandbox;
const db = tempDbPath();
beforeAll(async () => {
  // Two minutes behind: within what the sandbox accepts, but worth a warning.
  behind = await startSandbox({ port: 0, dbPath: db.dbPath, clockSkewMs: -120_000 });
});
afterAll(async () => {
  await behind.close();
  db.remove();
});

describe('npm run doctor with a connections file', () => {
  it('checks the connection it is named, and names the connections there are for one that is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doctor-connections-'));
    try {
      const file = join(dir, 'connections.json');
      writeFileSync(
        file,
        JSON.stringify({
          connections: [
            { name: 'sandbox', sandbox: true },
            {
              name: 'uat',
              label: 'Acme UAT',
              baseUrl: behind.url,
              apiKeyEnv: 'UAT_KEY',
              apiSecretEnv: 'UAT_SECRET',
              clientOrgs: [{ id: 1001 }],
              vendorOrgId: sandboxDemo.vendorOrgId,
              production: false,
            },
          ],
          default: 'sandbox',
        }),
      );
      const env = {
        VMS_CONNECTIONS: file,
        UAT_KEY: sandboxDemo.apiKey,
        UAT_SECRET: sandboxDemo.apiSecret,
      };
      const uat = await doctor(['--connection', 'uat'], io(env));
      // The sandbox behind it runs two minutes slow: the clock warns, nothing fails.
      expect(uat.code).toBe(3);
      expect(uat.stdout).toMatch(/^Connection uat \(Acme UAT \(127\.0\.0\.1:\d+\)\)/);
      const missing = await doctor(['--connection', 'production'], io(env));
      expect(missing.code).toBe(2);
      expect(oneLine(missing.stderr)).toContain(
        'there is no connection named "production"; the connections are "sandbox", "uat"',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm run doctor, checking a connection', () => {
  it('exits 0 when every probe passes against the embedded sandbox, one line per probe', async () => {
    const result = await doctor(['--connection', 'default'], io());
    expect(result.code, result.stdout).toBe(0);
    // `default` stands for the default connection: without VMS_BASE_URL, the sandbox.
    expect(result.stdout).toMatch(/^Connection sandbox \(the embedded sandbox\)/);
    for (const title of ['VMS reachable', 'Clock', 'Key and signature', 'Dates']) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}\\[passed\\] +${title}: `, 'm'));
    }
    expect(result.stdout).not.toContain(sandboxDemo.apiKey);
    expect(result.stdout).not.toContain(sandboxDemo.apiSecret);
  });

  it('is also the `check` subcommand, and prints the report as JSON with --json', async () => {
    const result = await doctor(['check', '--connection', 'default', '--json'], io());
    expect(result.code).toBe(0);
    const report = doctorReportSchema.parse(JSON.parse(result.stdout));
    expect(report.verdict).toBe('passed');
    expect(report.probes).toHaveLength(9);
    // --json carries what each verdict rests on.
    const paging = report.probes.find((probe) => probe.id === 'paging');
    expect(paging?.evidence.length).toBeGreaterThan(1);
    expect(paging?.evidence[0]).toMatch(/^GET requisitions\?.* → 200, \d+ records/);
  });

  it('exits 1 when a probe fails, with its fix under it', async () => {
    const port = await freePort();
    const result = await doctor(
      ['--connection', 'default'],
      io(remote(`http://127.0.0.1:${port}/`)),
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/\[FAILED\] +VMS reachable: Connection refused/);
    expect(result.stdout).toMatch(/^ +Fix: Check the port in the connection's base URL/m);
  });

  it('exits 3 when nothing failed but something is undecided', async () => {
    const result = await doctor(['--json'], io(remote(behind.url)));
    expect(result.code, result.stdout).toBe(3);
    const report = doctorReportSchema.parse(JSON.parse(result.stdout));
    expect(report.verdict).toBe('undecided');
    expect(report.probes.find((probe) => probe.id === 'clock')?.verdict).toBe('undecided');
  });

  it('exits 2 with one line for a wrong command or wrong settings', async () => {
    for (const [argv, env, said] of [
      [['--connection', 'elsewhere'], {}, /no connection named "elsewhere"/],
      [['--colour'], {}, /--colour/],
      [['check', 'now'], {}, /unexpected argument now/],
      [['--yes'], {}, /--yes and --force go with --send-test-requisition/],
      [[], { VMS_TIMEOUT_MS: 'soon' }, /settings error: VMS_TIMEOUT_MS/],
    ] as const) {
      const result = await doctor([...argv], io({ ...env }));
      expect(result.code, argv.join(' ')).toBe(2);
      expect(oneLine(result.stderr)).toMatch(said);
      expect(result.stdout).toBe('');
    }
  });

  it('sends the test requisition only when asked, and asks first at a terminal', async () => {
    const questions: string[] = [];
    const declined = await doctor(
      ['--send-test-requisition'],
      io(
        {},
        { isTTY: true, confirm: (question) => (questions.push(question), Promise.resolve(false)) },
      ),
    );
    expect(questions).toHaveLength(1);
    expect(questions[0]).toContain('test requisition');
    expect(declined.code).toBe(2);
    expect(oneLine(declined.stderr)).toContain('not sent');

    const sent = await doctor(
      ['--send-test-requisition', '--yes', '--json'],
      io(
        { SANDBOX_PROCESSING_DELAY_MS: '0' },
        { isTTY: true, confirm: () => Promise.reject(new Error('asked')) },
      ),
    );
    expect(sent.code, sent.stdout).toBe(0);
    const report = doctorReportSchema.parse(JSON.parse(sent.stdout));
    expect(report.probes.at(-1)).toMatchObject({ id: 'sendTest', verdict: 'passed' });
  });

  it('runs as `npm run doctor -- --connection default --json` does', () => {
    const result = spawnSync(
      join('node_modules', '.bin', 'tsx'),
      ['src/cli/doctor.ts', '--connection', 'default', '--json'],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        timeout: 60_000,
      },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(doctorReportSchema.parse(JSON.parse(result.stdout)).verdict).toBe('passed');
  });
});
