import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerKey, skillResponseKey } from '@/domain';
import { suiteSchema } from '@/domain/suite-cases';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { candidateFor, requisitionInsert } from '@/test-support/test-data';
import { main } from './suite';
import { renderSuiteSchema } from './suite-schema';

/*
 * `npm run suite -- run` against a real portal and its sandbox: a suite that creates a
 * requisition, submits a candidate to it by reference and expects an Error where the VMS gives
 * one passes, twice in a row (its unique values are the run's own); a wrong expectation fails
 * with exit 1 and JUnit XML that names the case and says why.
 */

let dir: string;
let portal: RunningPortal;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'suite-cli-'));
  portal = await startPortal(
    loadConfig({
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_DB: join(dir, 'sandbox.db'),
      PORTAL_DB: join(dir, 'portal.db'),
      SANDBOX_PROCESSING_DELAY_MS: '0',
      LOG_LEVEL: 'silent',
    }),
  );
});

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

function suiteFile(name: string, expectCandidate: string): string {
  const suite = {
    name,
    cases: [
      {
        id: 'create-req',
        name: 'a complete requisition is accepted',
        kind: 'requisition',
        item: requisitionInsert({ clientinternalreq: 'SUITE-{{run.id}}-1' }),
        expect: { status: 'Success' },
      },
      {
        id: 'unknown-class',
        name: 'a req class the client does not have is refused, naming the field',
        kind: 'requisition',
        item: requisitionInsert({ clientinternalreq: 'SUITE-{{run.id}}-2', reqclassid: '999' }),
        expect: { status: 'Error', field: 'reqclassid', message: '999' },
      },
      {
        id: 'candidate',
        name: 'a candidate to the requisition just created is New',
        kind: 'candidate',
        item: {
          ...candidateFor(40008, {
            requirementid: '{{create-req.createdId}}',
            candemail: '{{unique.email}}',
            vendorcandidateid: 'V-{{run.id}}',
          }),
          // The created requisition's one skill and one question, answered.
          [answerKey(1)]: 'Two weeks',
          [skillResponseKey('response', 1)]: '3',
          [skillResponseKey('duration', 1)]: '2',
          [skillResponseKey('units', 1)]: '4',
        },
        expect: { status: expectCandidate },
      },
    ],
  };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(suite));
  return file;
}

describe('npm run suite -- run', () => {
  it('passes a suite that creates data, twice in a row, and exits 0, telling progress and the comparison with the run before', async () => {
    const file = suiteFile('regression', 'New');
    const runIds: number[] = [];
    for (const round of [1, 2]) {
      const progress: string[] = [];
      const result = await main(['run', file, '--portal', portal.url, '--json'], {
        progress: (line) => progress.push(line),
      });
      const report = JSON.parse(result.stdout) as {
        id: number;
        passed: number;
        failed: number;
        previousRunId: number | null;
        cases: { id: string; verdict: string; actual: { status: string; createdId: string } }[];
      };
      runIds.push(report.id);
      expect(progress[0]).toBe(
        `run ${report.id} of regression on sandbox: 3 cases, ${portal.url}/suites/runs/${report.id}\n`,
      );
      expect(report.previousRunId).toBe(round === 1 ? null : runIds[0]);
      expect(report.cases.map((entry) => entry.verdict)).toEqual(
        Array(3).fill(round === 1 ? 'new' : 'passing'),
      );
      expect({ round, code: result.code, failed: report.failed }).toEqual({
        round,
        code: 0,
        failed: 0,
      });
      expect(report.cases.map((entry) => [entry.id, entry.actual.status])).toEqual([
        ['create-req', 'Success'],
        ['unknown-class', 'Error'],
        ['candidate', 'New'],
      ]);
      expect(report.cases[0]?.actual.createdId).toMatch(/^\d+$/);
    }
  });

  it('exits 1 when a case fails, with JUnit XML that names it and says why', async () => {
    const file = suiteFile('wrong-expectation', 'Incomplete');
    const junit = join(dir, 'out.xml');
    const result = await main(['run', file, '--portal', portal.url, '--junit', junit]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL  a candidate to the requisition just created is New');
    expect(result.stdout).toContain('expected Incomplete, got New');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuite name="wrong-expectation" tests="3" failures="1"/);
    expect(xml).toMatch(
      /<testcase classname="wrong-expectation" name="a candidate to the requisition just created is New" time="[\d.]+">\s*<failure message="expected Incomplete, got New">/,
    );
    // The passing cases carry no failure.
    expect(xml.match(/<failure /g)).toHaveLength(1);
  });

  it('runs a stored suite by its name, and exits 2 naming those there are when none has it', async () => {
    const suite = JSON.parse(readFileSync(suiteFile('stored', 'New'), 'utf8')) as unknown;
    const saved = await fetch(`${portal.url}/api/suites`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ suite: { ...(suite as object), name: 'Stored regression' } }),
    });
    expect(saved.status).toBe(201);
    const result = await main(['run', 'stored regression', '--portal', portal.url]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Stored regression: 3 passed, 0 failed, in [\d.]+ s \(run \d+, connection sandbox, 2 batches\)$/m,
    );
    const missing = await main(['run', 'Nightly', '--portal', portal.url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe(
      'suite: the run was not started: 404: There is no stored suite named "Nightly". There are "Stored regression".',
    );
  });

  it('exits 2 with one line for a suite that refers to a later case, or a portal that is not there', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        name: 'bad',
        cases: [
          {
            id: 'candidate',
            kind: 'candidate',
            item: { requirementid: '{{later.createdId}}' },
            expect: { status: 'New' },
          },
        ],
      }),
    );
    const refused = await main(['run', bad, '--portal', portal.url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `suite: ${bad}: case 1 ("candidate").item: {{later.createdId}} names no case of this suite; check the id ("later")\n`,
    );
    const missingFile = await main(['run', join(dir, 'nothing.json'), '--portal', portal.url]);
    expect(missingFile.stderr).toBe(
      `suite: ${join(dir, 'nothing.json')} cannot be read: check the path\n`,
    );
    const away = await main(['run', suiteFile('away', 'New'), '--portal', 'http://127.0.0.1:9']);
    expect(away.code).toBe(2);
    expect(away.stderr).toMatch(
      /^suite: the portal at http:\/\/127\.0\.0\.1:9 could not be reached/,
    );
  });
});

describe('the documented suite', () => {
  const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

  it('has its JSON Schema as the runner reads it (run `npm run docs:suite-schema` after changing it)', () => {
    expect(read('docs/suite.schema.json')).toBe(renderSuiteSchema());
  });

  it('is a suite to the published schema and to the runner, and passes against the sandbox', async () => {
    const example = JSON.parse(read('docs/examples/suite.json')) as unknown;
    const validate = new Ajv({ allErrors: true }).compile(
      JSON.parse(read('docs/suite.schema.json')) as Record<string, unknown>,
    );
    expect(validate(example)).toBe(true);
    expect(suiteSchema.safeParse(example).success).toBe(true);
    const result = await main([
      'run',
      fileURLToPath(new URL('../../docs/examples/suite.json', import.meta.url)),
      '--portal',
      portal.url,
    ]);
    expect(result.stdout).toMatch(/3 passed, 0 failed/);
    expect(result.code).toBe(0);
  });
});

describe('npm run suite -- run against a portal with sign-in on', () => {
  it('exits 2 saying the portal asks for sign-in', async () => {
    const signedIn = await startPortal(
      loadConfig({
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: join(dir, 'sandbox-auth.db'),
        PORTAL_DB: join(dir, 'portal-auth.db'),
        AUTH: 'on',
        LOG_LEVEL: 'silent',
      }),
    );
    try {
      const result = await main(['run', suiteFile('auth', 'New'), '--portal', signedIn.url], {
        env: {},
      });
      expect(result).toMatchObject({ code: 2, stdout: '' });
      expect(result.stderr).toBe(
        `suite: the portal at ${signedIn.url} needs sign-in (401): pass --token or set VMS_PORTAL_TOKEN to a personal API token from your Account page\n`,
      );
    } finally {
      await signedIn.close();
    }
  });
});
