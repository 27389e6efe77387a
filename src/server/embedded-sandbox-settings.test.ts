import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteRunSchema } from '@/domain/suite-run';
import { candidateFor } from '@/test-support/test-data';
import { buildServer } from '../../scripts/build-cli';

/*
 * `npm start`'s embedded sandbox obeys the settings docs/sandbox.md lists, as `npm run sandbox`
 * does: given in the environment, or on the sandbox connection of a VMS_CONNECTIONS file; and
 * the start line names those that differ from the defaults. The server is the built one
 * (build/server/main.mjs, as `npm start` runs it), started with plain node; a candidate is sent
 * through its proxy by a suite run, as QA would.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, 'build'), { recursive: true });
const dir = mkdtempSync(join(root, 'build', '.test-embedded-sandbox-'));
let main: string;

beforeAll(async () => {
  main = await buildServer(join(dir, 'server'));
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started {
  url: string;
  /** What the server printed before it was ready: the start lines. */
  output: string;
  child: ChildProcess;
}

let count = 0;

/** The built server with these settings, its sandbox on a free port and its own files. */
async function start(env: Record<string, string>): Promise<Started> {
  count += 1;
  const child = spawn(process.execPath, [main], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_DB: join(dir, `sandbox-${count}.db`),
      PORTAL_DB: join(dir, `portal-${count}.db`),
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /VMS submission portal: (http:\/\/\S+)/.exec(output);
      if (match?.[1] && /\nupstream: [^\n]*\n/.test(output)) resolve(match[1]);
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { url, output, child };
}

async function stop({ child }: Started): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * A candidate above the hourly high (88.00) of requisition 40003, whose maximumbillrate is blank,
 * run as a one-case suite expecting the VMS to refuse its bill rate: it passes only when the
 * sandbox reads a blank maximumbillrate as the hourly high.
 */
async function billRateRefused(portal: string): Promise<{ passed: boolean; failure: string }> {
  const suite = {
    name: 'blank maximum bill rate',
    cases: [
      {
        id: 'above-high',
        kind: 'candidate',
        item: candidateFor(40003, { billrate: '88.01', candemail: '{{unique.email}}' }),
        expect: { status: 'Error', field: 'billrate' },
      },
    ],
  };
  const started = await fetch(`${portal}/api/suite-runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portal },
    body: JSON.stringify({ suite }),
  });
  expect(started.status, await started.clone().text()).toBe(202);
  let run = suiteRunSchema.parse(await started.json());
  while (run.status === 'running') {
    const read = await fetch(
      `${portal}/api/suite-runs/${run.id}?waitMs=5000&seen=${run.casesDone}`,
    );
    run = suiteRunSchema.parse(await read.json());
  }
  expect(run.status).toBe('finished');
  const [result] = run.cases;
  return { passed: result?.passed ?? false, failure: result?.failure ?? '' };
}

describe("npm start's embedded sandbox", () => {
  it('keeps the documented defaults, and its start line names no setting', async () => {
    const portal = await start({});
    try {
      expect(portal.output).toMatch(
        /\nupstream: sandbox at http:\/\/\S+ \(demo credentials, data in \S+\)\n/,
      );
      // A blank maximumbillrate is no limit: the candidate is not refused for its bill rate.
      const result = await billRateRefused(portal.url);
      expect(result.passed).toBe(false);
      expect(result.failure).toMatch(/^expected Error, got (New|Incomplete)/);
    } finally {
      await stop(portal);
    }
  });

  it('obeys SANDBOX_BLANK_MAXIMUM_BILL_RATE and SANDBOX_CLOCK_SKEW_MS, and names them on the start line', async () => {
    const portal = await start({
      SANDBOX_BLANK_MAXIMUM_BILL_RATE: 'hourly-high',
    });
    try {
      expect(portal.output).toMatch(
        /\nupstream: sandbox at \S+ \(demo credentials, data in \S+; set: a blank maximumbillrate read as the hourly high\)\n/,
      );
      expect(await billRateRefused(portal.url)).toEqual({ passed: true, failure: '' });
    } finally {
      await stop(portal);
    }

    const skewed = await start({ SANDBOX_CLOCK_SKEW_MS: '600000' });
    try {
      const sandboxUrl = /\nupstream: sandbox at (\S+) /.exec(skewed.output)?.[1] ?? '';
      expect(skewed.output).toContain('; set: clock 600000 ms ahead)');
      // The sandbox's Date header is ten minutes ahead of this machine's clock.
      const answer = await fetch(new URL('/_sandbox/health', sandboxUrl));
      const ahead = Date.parse(answer.headers.get('date') ?? '') - Date.now();
      expect(ahead).toBeGreaterThan(590_000);
      expect(ahead).toBeLessThan(610_000);
    } finally {
      await stop(skewed);
    }
  });

  it('obeys the same settings given on the sandbox connection of VMS_CONNECTIONS', async () => {
    const file = join(dir, 'connections.json');
    writeFileSync(
      file,
      JSON.stringify({
        connections: [
          {
            name: 'sandbox',
            sandbox: true,
            processingDelayMs: 0,
            blankMaximumBillRate: 'hourly-high',
          },
        ],
      }),
    );
    const portal = await start({ VMS_CONNECTIONS: file });
    try {
      expect(portal.output).toMatch(
        /; set: 0 ms before each item, a blank maximumbillrate read as the hourly high\)\n/,
      );
      expect(await billRateRefused(portal.url)).toEqual({ passed: true, failure: '' });
    } finally {
      await stop(portal);
    }
  });

  it('refuses the setting beside VMS_CONNECTIONS, saying where it goes', async () => {
    const file = join(dir, 'connections-plain.json');
    writeFileSync(file, JSON.stringify({ connections: [{ name: 'sandbox', sandbox: true }] }));
    await expect(
      start({ VMS_CONNECTIONS: file, SANDBOX_BLANK_MAXIMUM_BILL_RATE: 'hourly-high' }),
    ).rejects.toThrow(
      /SANDBOX_BLANK_MAXIMUM_BILL_RATE[^\n]*the sandbox connection's "blankMaximumBillRate"/,
    );
  });
});
