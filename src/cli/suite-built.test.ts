import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createdApiTokenSchema, type ApiTokenScope } from '@/domain/api-tokens';
import { auditPageSchema } from '@/domain/audit';
import { journalPageSchema } from '@/domain/journal';
import { suiteRunListSchema, suiteRunSchema } from '@/domain/suite-run';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { testStoreEnv } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';
import { buildTools } from '../../scripts/build-cli';

/*
 * The suite command as CI runs it: build/cli/suite.mjs, built as `npm run build` builds it, run
 * with plain node in its own process, against a real portal with sign-in on and its embedded
 * sandbox. What the portal does with a run started with a personal API token, and what the
 * command prints, are read where CI and an auditor read them: the exit code, stdout and stderr,
 * the audit trail and the portal's log lines.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const password = 'correct horse battery staple';
// Built inside the project, as npm run build builds it, so its packages resolve from node_modules.
mkdirSync(join(root, 'build'), { recursive: true });
const dir = mkdtempSync(join(root, 'build', '.test-suite-cli-'));

let command: string;
let portal: RunningPortal;
let log = '';
let ada: TestBrowser;
let quinn: TestBrowser;
let suiteFile: string;

beforeAll(async () => {
  const built = await buildTools(join(dir, 'cli'));
  command = built.find((file) => file.endsWith('suite.mjs')) ?? '';
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
        PORTAL_RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'info',
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
  await addUser(portalDb, 'ada@example.com', password, 'admin');
  await addUser(portalDb, 'quinn@example.com', password, 'qa', [1001]);
  ada = new TestBrowser(portal.url);
  expect((await ada.signIn('ada@example.com', password)).status).toBe(200);
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
          item: requisitionInsert({ clientinternalreq: 'BUILT-{{run.id}}' }),
          expect: { status: 'Success' },
        },
      ],
    }),
  );
}, 60_000);

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

async function makeToken(name: string, scope: ApiTokenScope) {
  const answer = await quinn.call('POST', '/api/tokens', { body: { name, scope } });
  expect(answer.status).toBe(201);
  return createdApiTokenSchema.parse(answer.json()).secret;
}

/** node build/cli/suite.mjs …, in its own process: its exit code and what it printed. */
function runBuilt(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The run id the command's report names ("(run 7, connection …"). */
function runIdOf(stdout: string): number {
  const match = /\(run (\d+), connection /.exec(stdout);
  expect(match, stdout).not.toBeNull();
  return Number(match?.[1]);
}

describe('a run started with a personal API token', () => {
  it('says "via token <name>" in its send events and its vms call log lines', async () => {
    const secret = await makeToken('nightly CI', 'suites');
    const result = await runBuilt(['run', suiteFile, '--portal', portal.url], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(result.code, result.stderr).toBe(0);
    const runId = runIdOf(result.stdout);

    // The run's batch and its results reads, as the journal lists them.
    const calls = await quinn.call('GET', `/api/journal?run=${runId}`);
    expect(calls.status).toBe(200);
    const traceIds = new Set(
      journalPageSchema.parse(calls.json()).entries.map((entry) => entry.traceId),
    );
    expect(traceIds.size).toBeGreaterThan(0);

    const audit = await ada.call('GET', '/api/audit?event=send');
    expect(audit.status).toBe(200);
    const sends = auditPageSchema
      .parse(audit.json())
      .entries.filter((entry) => traceIds.has(entry.traceId));
    expect(sends.length).toBeGreaterThan(0);
    for (const send of sends) {
      expect(send).toMatchObject({
        email: 'quinn@example.com',
        details: { via: 'token nightly CI' },
      });
    }

    const lines = log
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line): Record<string, unknown> => JSON.parse(line))
      .filter((line) => line.msg === 'vms call' && traceIds.has(line.traceId as string));
    // The batch (a POST) and at least one read of its results.
    expect(lines.map((line) => line.event)).toContain('send');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatchObject({ email: 'quinn@example.com', via: 'token nightly CI' });
    }
  });
});

describe('what the command prints', () => {
  /** A file in the test's folder, written as given. */
  function file(name: string, text: string): string {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('exits 2 with one line, and no usage after it, for a file that is no suite', async () => {
    // The fourth line's "kind" follows "a" without a comma: line 4, column 16.
    const syntax = file(
      'syntax.json',
      '{\n  "name": "broken",\n  "cases": [\n    {"id": "a" "kind": "requisition"}\n  ]\n}\n',
    );
    const unfinished = file('unfinished.json', '{"name": "broken", "cases": [');
    const unknownKey = file(
      'unknown-key.json',
      JSON.stringify({
        name: 'typo',
        cases: [
          {
            id: 'create-req',
            kind: 'requisition',
            item: { titlerole: 'Nurse' },
            expect: { status: 'Success' },
            expext: { status: 'Error' },
          },
        ],
      }),
    );
    const noSuchCase = file(
      'no-such-case.json',
      JSON.stringify({
        name: 'dangling',
        cases: [
          {
            id: 'candidate',
            kind: 'candidate',
            item: { requirementid: '{{create-req.createdId}}' },
            expect: { status: 'New' },
          },
        ],
      }),
    );
    const expected: [string, RegExp][] = [
      [syntax, /^suite: \S+syntax\.json is not JSON: line 4, column 16: .*property value\n$/],
      [unfinished, /^suite: \S+unfinished\.json is not JSON: line 1, column 30: .+\n$/],
      [
        unknownKey,
        /^suite: \S+unknown-key\.json: case 1 \("create-req"\): "expext" is not a key of a case: .+\n$/,
      ],
      [
        noSuchCase,
        /^suite: \S+no-such-case\.json: case 1 \("candidate"\)\.item: \{\{create-req\.createdId\}\} names no case of this suite.*\n$/,
      ],
    ];
    for (const [path, line] of expected) {
      const result = await runBuilt(['run', path, '--portal', portal.url]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(line);
      expect(result.stderr.split('\n')).toHaveLength(2);
    }
    // A wrong command still says how the command is written.
    const wrong = await runBuilt(['run', syntax]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^suite: --portal <url> is required.*\nusage: npm run suite -- /);
  });

  it('warns once on stderr when the token is on the command line, and not when it is in the environment', async () => {
    const secret = await makeToken('CI warning', 'suites');
    const flag = await runBuilt(['run', suiteFile, '--portal', portal.url, '--token', secret]);
    expect(flag.code, flag.stderr).toBe(0);
    const warnings = flag.stderr.split('\n').filter((line) => /warning/i.test(line));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/--token.*CI log.*VMS_PORTAL_TOKEN/);
    expect(flag.stderr).not.toContain(secret);
    expect(flag.stdout).not.toContain(secret);

    const environment = await runBuilt(['run', suiteFile, '--portal', portal.url], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(environment.code, environment.stderr).toBe(0);
    expect(environment.stderr).not.toMatch(/warning/i);
  });

  it('writes the JSON report to the file --json names, whatever else reaches stdout', async () => {
    const secret = await makeToken('CI report', 'suites');
    const report = join(dir, 'report.json');
    const toFile = await runBuilt(['run', suiteFile, '--portal', portal.url, `--json=${report}`], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(toFile.code, toFile.stderr).toBe(0);
    const run = suiteRunSchema.parse(JSON.parse(readFileSync(report, 'utf8')));
    expect(run).toMatchObject({ suiteName: 'smoke', passed: 1, failed: 0, status: 'finished' });
    // The text report is still the log's.
    expect(toFile.stdout).toContain(`smoke: 1 passed, 0 failed`);
    expect(runIdOf(toFile.stdout)).toBe(run.id);

    // --json alone, wherever it stands, prints it on stdout in place of the text: before the
    // suite file it does not take the file for where to write.
    const printed = await runBuilt(['run', '--json', suiteFile, '--portal', portal.url], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(printed.code, printed.stderr).toBe(0);
    expect(suiteRunSchema.parse(JSON.parse(printed.stdout))).toMatchObject({ passed: 1 });
  });
});

describe('a run from a file', () => {
  it("prints the run's page address, which the portal serves, and the run is listed with the runs of suite files", async () => {
    const secret = await makeToken('CI address', 'suites');
    const result = await runBuilt(['run', suiteFile, '--portal', portal.url], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(result.code, result.stderr).toBe(0);
    const runId = runIdOf(result.stdout);
    const address = `${portal.url}/suites/runs/${runId}`;
    // In the report CI keeps, and on the progress line as soon as the run starts.
    expect(result.stdout).toContain(`\nthe run in the portal: ${address}\n`);
    expect(result.stderr).toMatch(
      new RegExp(`^run ${runId} of smoke on sandbox: 1 cases, ${address}$`, 'm'),
    );

    // What the page at that address shows is e2e/suites.spec.ts's to prove, in Chromium.
    const files = await quinn.call('GET', '/api/suite-runs?suite=files');
    expect(files.status).toBe(200);
    const listed = suiteRunListSchema.parse(files.json()).runs;
    expect(listed.map((run) => run.id)).toContain(runId);
    expect(listed.every((run) => run.suiteId === null)).toBe(true);
  });

  it('needs only a token of scope suites, as docs/ui.md and docs/suites.md both say', () => {
    const ui = readFileSync(join(root, 'docs', 'ui.md'), 'utf8').replace(/\s+/g, ' ');
    const guide = readFileSync(join(root, 'docs', 'suites.md'), 'utf8').replace(/\s+/g, ' ');
    expect(guide).toContain('a token of scope **suites** is enough');
    expect(ui).toMatch(/"Suites", the suite API, enough to run any suite, a suite file/);
    // Neither says a suite file's run needs the proxy's scope.
    for (const doc of [ui, guide]) expect(doc).not.toMatch(/suite file's run needs/);
  });
});
