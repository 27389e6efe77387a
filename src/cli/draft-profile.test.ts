import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { startCaptureUpstream } from '@/test-support/capture-upstream';
import { exampleProfile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { main as doctor, type Io } from './doctor';

/*
 * `npm run doctor -- draft-profile` through the command's main(): against the sandbox speaking
 * the documented other VMS's profile, the draft written with --out is the profile `check` then
 * passes; without --out it is printed; a VMS whose results path no shape finds exits 1 naming
 * what was tried; a wrong command exits 2 with one line.
 */

const io = (env: Record<string, string> = {}): Io => ({
  env,
  readStdin: () => Promise.resolve(''),
});

const remote = (url: string): Record<string, string> => ({
  VMS_BASE_URL: url,
  VMS_API_KEY: sandboxDemo.apiKey,
  VMS_API_SECRET: sandboxDemo.apiSecret,
  VMS_CLIENT_ORGS: sandboxDemo.clientOrgIds.join(','),
  VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
});

const oneLine = (text: string) => {
  expect(text.trimEnd().split('\n')).toHaveLength(1);
  return text;
};

const started: Array<{ sandbox: RunningSandbox; remove(): void }> = [];
async function sandboxSpeaking(profile: VmsProfile): Promise<string> {
  const db = tempDbPath();
  const sandbox = await startSandbox({ port: 0, dbPath: db.dbPath, processingDelayMs: 0, profile });
  started.push({ sandbox, remove: db.remove });
  return sandbox.url;
}

let dir: string;
let other: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'draft-profile-'));
  other = await sandboxSpeaking(exampleProfile());
});
afterAll(async () => {
  for (const { sandbox, remove } of started) {
    await sandbox.close();
    remove();
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run doctor -- draft-profile', () => {
  it('writes the draft with --out, and check passes the connection with it as its profile', async () => {
    const file = join(dir, 'drafted.json');
    const drafted = await doctor(['draft-profile', '--out', file], io(remote(other)));
    expect(drafted.stderr).toBe('');
    expect(drafted.code).toBe(0);
    expect(oneLine(drafted.stdout)).toMatch(
      new RegExp(
        `^Wrote the drafted profile to ${file}: \\d+ proved, \\d+ guessed, \\d+ undecided \\(see "\\$evidence"\\)\\.\\n$`,
      ),
    );
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written).toHaveProperty(['$evidence', 'paths.requisitionresults']);

    const checked = await doctor(['check'], io({ ...remote(other), VMS_PROFILE: file }));
    expect(checked.stdout).toContain('Every check passed (9).');
    expect(checked.code).toBe(0);
  });

  it('prints the draft as JSON without --out', async () => {
    const printed = await doctor(['draft-profile', '--connection', 'default'], io(remote(other)));
    expect(printed.code).toBe(0);
    const profile = JSON.parse(printed.stdout) as { list: { records: string }; $evidence: object };
    expect(profile.list.records).toBe('/items');
    expect(Object.keys(profile.$evidence)).toContain('signature');
  });

  it('refuses a signature example without a signature header, with one line and exit 2', async () => {
    const file = join(dir, 'example.json');
    writeFileSync(
      file,
      JSON.stringify({ method: 'GET', path: '/x', headers: { 'x-api-key': sandboxDemo.apiKey } }),
    );
    const refused = await doctor(['draft-profile', '--example-signature', file], io(remote(other)));
    expect(refused.code).toBe(2);
    expect(oneLine(refused.stderr)).toBe(
      `doctor draft-profile: ${file}: no header of the example carries a signature (a header named …sign… holding hex or base64 text)\n`,
    );
  });

  it('exits 1 naming what it tried when no results path fits', async () => {
    const own = sandboxProfile();
    const url = await sandboxSpeaking({
      ...own,
      paths: {
        ...own.paths,
        requisitionresults: 'outcomes/reqs/{batchid}/lines',
        candidateresults: 'outcomes/cands/{batchid}/lines',
      },
    });
    const file = join(dir, 'never.json');
    const result = await doctor(['draft-profile', '--out', file], io(remote(url)));
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const [first, ...tried] = result.stderr.trimEnd().split('\n');
    expect(first).toContain('doctor draft-profile: no profile drafted: no results path was found');
    expect(tried.length).toBeGreaterThanOrEqual(20);
    expect(tried).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^ {2}tried: GET batches\/draft-[0-9a-f]+\/requisitionresults\?Client_Org_Id=1001&Vendor_Org_Id=9001 → 404 /,
        ),
      ]),
    );
    expect(() => readFileSync(file)).toThrow();
  });

  it.each([
    [['--bogus'], "doctor draft-profile: Unknown option '--bogus'."],
    [['extra'], 'doctor draft-profile: unexpected argument extra;'],
    [['--yes'], 'doctor draft-profile: --yes and --force go with --send-test-requisition;'],
    [['--out'], "doctor draft-profile: Option '--out <value>' argument missing"],
    [
      ['--example-signature', '/nowhere/example.json'],
      'doctor draft-profile: cannot read /nowhere/example.json: no such file',
    ],
    [
      ['--connection', 'elsewhere'],
      'doctor draft-profile: there is no connection named "elsewhere"',
    ],
  ])('refuses %j with one line and exit 2', async (argv, start) => {
    const result = await doctor(['draft-profile', ...argv], io(remote(other)));
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr).startsWith(start)).toBe(true);
  });

  it('prints its usage line with --help', async () => {
    const result = await doctor(['draft-profile', '--help'], io());
    expect(result).toEqual({
      code: 0,
      stdout:
        'usage: npm run doctor -- draft-profile [--connection NAME] [--example-signature FILE] [--out FILE] [--send-test-requisition [--yes] [--force]]\n',
      stderr: '',
    });
  });

  it('with --send-test-requisition --yes on a test VMS, drafts the POST side too, and check passes its own test send with the draft', async () => {
    const env = { ...remote(other), VMS_PRODUCTION: 'off' };
    const file = join(dir, 'sent.json');
    const drafted = await doctor(
      ['draft-profile', '--send-test-requisition', '--yes', '--out', file],
      io(env),
    );
    expect(drafted.stderr).toBe('');
    expect(drafted.code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      paths: { requisitionimport: 'api/v2/requisitions/import' },
      accepted: { batchId: '/data/batch/id' },
    });
    const checked = await doctor(
      ['check', '--send-test-requisition', '--yes'],
      io({ ...env, VMS_PROFILE: file }),
    );
    expect(checked.stdout).toContain('Every check passed (10).');
    expect(checked.code).toBe(0);
  });

  it('refuses --send-test-requisition on a production connection with one line and exit 2, asking and calling nothing', async () => {
    const vms = await startCaptureUpstream();
    const asked: string[] = [];
    try {
      const env = { ...remote(vms.url.replace(/\/$/, '')), VMS_PRODUCTION: 'on' };
      const result = await doctor(['draft-profile', '--send-test-requisition'], {
        ...io(env),
        isTTY: true,
        confirm: (question) => {
          asked.push(question);
          return Promise.resolve(true);
        },
      });
      expect(asked).toEqual([]);
      expect(result.code).toBe(2);
      expect(oneLine(result.stderr)).toBe(
        'doctor draft-profile: The default connection is a production VMS: the test requisition would be a real one there. Draft it without the test send, or force it if you mean it (--force).\n',
      );
      expect(vms.requests).toHaveLength(0);
    } finally {
      await vms.close();
    }
  });

  it('sends nothing when the person at the terminal does not confirm the test send', async () => {
    const vms = await startCaptureUpstream();
    const asked: string[] = [];
    try {
      const env = { ...remote(vms.url.replace(/\/$/, '')), VMS_PRODUCTION: 'off' };
      const result = await doctor(['draft-profile', '--send-test-requisition'], {
        ...io(env),
        isTTY: true,
        confirm: (question) => {
          asked.push(question);
          return Promise.resolve(false);
        },
      });
      expect(result.code).toBe(2);
      expect(oneLine(result.stderr)).toBe(
        'doctor draft-profile: the test requisition was not sent (not confirmed); nothing was drafted\n',
      );
      expect(asked).toEqual([
        expect.stringMatching(
          /^Send one test requisition, and a test candidate to it \(marked CONNECTION CHECK\) to http:\/\/127\.0\.0\.1:\d+\/? for client org 1001\?/,
        ),
      ]);
      expect(vms.requests).toHaveLength(0);
    } finally {
      await vms.close();
    }
  });
});
