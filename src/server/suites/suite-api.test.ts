import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerKey, skillResponseKey } from '@/domain';
import { apiErrorBodySchema } from '@/domain/api-error';
import { journalPageSchema } from '@/domain/journal';
import type { Suite, SuiteCase } from '@/domain/suite';
import { casesFromItems } from '@/domain/suite-cases';
import { withGeneratedPersonalValues } from '@/domain/suite-personal';
import {
  suiteDetailSchema,
  suiteListSchema,
  suiteRunSchema,
  suiteVersionListSchema,
  type SuiteRun,
} from '@/domain/suite-run';
import { startSignedInPortal, type SignedInPortal } from '@/test-support/signed-in-portal';
import type { TestBrowser } from '@/test-support/test-browser';
import { candidateFor, requisitionInsert } from '@/test-support/test-data';

/*
 * The suites API (decision 038) on a started portal with sign-in on, in front of the real sandbox:
 * suites kept with their versions, runs made as the QA engineer through the portal's own proxy
 * (journaled under the run, each batch sent once), compared with the run before; recruiters may
 * do none of it.
 */

let world: SignedInPortal;
let quinn: TestBrowser;
let rita: TestBrowser;

beforeAll(async () => {
  world = await startSignedInPortal({
    prefix: 'suite-api-',
    processingDelayMs: 0,
    env: { LOG_LEVEL: 'info' },
    accounts: [
      { email: 'quinn@example.com', role: 'qa', orgs: [1001] },
      { email: 'rita@example.com', role: 'recruiter', orgs: [1001] },
    ],
  });
  quinn = world.browser('quinn@example.com');
  rita = world.browser('rita@example.com');
});

afterAll(() => world.close());

/** Requisitions `create-n` and candidates to each by reference, and a refused requisition. */
function regression(name: string, candidateExpects = 'New'): Suite {
  const cases: SuiteCase[] = [1, 2, 3].flatMap((n): SuiteCase[] => [
    {
      id: `create-${n}`,
      kind: 'requisition',
      item: requisitionInsert({ clientinternalreq: `API-${n}` }),
      expect: { status: 'Success' },
    },
    {
      id: `candidate-${n}`,
      name: `a candidate to requisition ${n}`,
      kind: 'candidate',
      item: {
        ...candidateFor(40008, {
          requirementid: `{{create-${n}.createdId}}`,
          candemail: '{{unique.email}}',
        }),
        [answerKey(1)]: 'Two weeks',
        [skillResponseKey('response', 1)]: '3',
      },
      expect: { status: n === 2 ? (candidateExpects as 'New') : 'New' },
    },
  ]);
  cases.push({
    id: 'unknown-class',
    kind: 'requisition',
    item: requisitionInsert({ clientinternalreq: 'API-X', reqclassid: '999' }),
    expect: { status: 'Error', field: 'reqclassid' },
  });
  // The references make the values unique per run: client internal reqs with the run's id.
  for (const entry of cases) {
    if (entry.kind === 'requisition')
      entry.item.clientinternalreq = `${entry.item.clientinternalreq}-{{run.id}}`;
  }
  return { name, cases };
}

async function runToEnd(browser: TestBrowser, body: unknown): Promise<SuiteRun> {
  const started = await browser.call('POST', '/api/suite-runs', { body });
  expect(started.status, started.text).toBe(202);
  let run = suiteRunSchema.parse(started.json());
  while (run.status === 'running') {
    const answer = await browser.call(
      'GET',
      `/api/suite-runs/${run.id}?waitMs=5000&seen=${run.casesDone}`,
    );
    run = suiteRunSchema.parse(answer.json());
  }
  return run;
}

describe('who may', () => {
  it('refuses a recruiter every suite route with 403, saying which role it needs', async () => {
    for (const [method, path] of [
      ['GET', '/api/suites'],
      ['POST', '/api/suites'],
      ['GET', '/api/suites/1'],
      ['POST', '/api/suite-runs'],
      ['GET', '/api/suite-runs'],
    ] as const) {
      const answer = await rita.call(method, path, method === 'POST' ? { body: {} } : {});
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(apiErrorBodySchema.parse(answer.json()).error.message).toMatch(/needs the qa role/);
    }
    expect((await quinn.call('GET', '/api/suites')).status).toBe(200);
  });
});

describe('suites', () => {
  it('keeps each save as a version with who and when, refuses a stale one naming who saved since, and exports the file as it came', async () => {
    const file = regression('Versions');
    const created = await quinn.call('POST', '/api/suites', { body: { suite: file } });
    expect(created.status).toBe(201);
    const first = suiteDetailSchema.parse(created.json());
    expect(first).toMatchObject({ name: 'Versions', version: 1, latestVersion: 1 });
    expect(first.savedBy?.email).toBe('quinn@example.com');

    const edited = { ...file, cases: file.cases.slice(0, 2) };
    const saved = await quinn.call('PUT', `/api/suites/${first.id}`, {
      body: { baseVersion: 1, suite: edited },
    });
    expect(suiteDetailSchema.parse(saved.json())).toMatchObject({ version: 2 });
    const stale = await quinn.call('PUT', `/api/suites/${first.id}`, {
      body: { baseVersion: 1, suite: file },
    });
    expect(stale.status).toBe(409);
    expect(apiErrorBodySchema.parse(stale.json()).error.message).toMatch(
      /^The suite was changed since you opened it: version 2 was saved by quinn@example.com at .*you edited version 1\. Nothing was saved/,
    );

    const versions = suiteVersionListSchema.parse(
      (await quinn.call('GET', `/api/suites/${first.id}/versions`)).json(),
    ).versions;
    expect(versions.map((entry) => [entry.version, entry.caseCount])).toEqual([
      [2, 2],
      [1, 7],
    ]);
    const old = suiteDetailSchema.parse(
      (await quinn.call('GET', `/api/suites/${first.id}?version=1`)).json(),
    );
    expect(old.suite).toEqual(file);
    expect(old.latestVersion).toBe(2);

    const exported = await quinn.call('GET', `/api/suites/${first.id}/export?version=1`);
    expect(exported.headers['content-disposition']).toBe(
      'attachment; filename="Versions.suite.json"',
    );
    expect(JSON.parse(exported.text)).toEqual(file);
    // Imported under another name, it is a suite of its own.
    const imported = await quinn.call('POST', '/api/suites', {
      body: { suite: { ...(JSON.parse(exported.text) as Suite), name: 'Versions, copy' } },
    });
    expect(imported.status).toBe(201);
  });

  it('refuses a second suite of the same name, and a file that is no suite with where and why', async () => {
    await quinn.call('POST', '/api/suites', { body: { suite: regression('Unique') } });
    const again = await quinn.call('POST', '/api/suites', {
      body: { suite: regression('UNIQUE') },
    });
    expect(again.status).toBe(409);
    expect(apiErrorBodySchema.parse(again.json()).error).toMatchObject({
      code: 'suite_exists',
      message:
        'A suite named "UNIQUE" already exists. Give this one another name, or add the cases to that suite.',
    });
    const broken = regression('Broken');
    broken.cases.unshift({ ...broken.cases[1]! });
    const refused = await quinn.call('POST', '/api/suites', { body: { suite: broken } });
    expect(refused.status).toBe(400);
    expect(apiErrorBodySchema.parse(refused.json()).error.message).toBe(
      'The suite: cases.0.item: {{create-1.createdId}} names a later case; a case may refer only to those before it; cases.2.id: case id "candidate-1" is used twice; give each case its own.',
    );
  });

  it('adds cases at the end of the latest version under free ids, their references following', async () => {
    const created = suiteDetailSchema.parse(
      (await quinn.call('POST', '/api/suites', { body: { suite: regression('Added') } })).json(),
    );
    const added = await quinn.call('POST', `/api/suites/${created.id}/cases`, {
      body: {
        cases: [
          {
            id: 'create-1',
            kind: 'requisition',
            item: { note: 'x' },
            expect: { status: 'Success' },
          },
          {
            id: 'then',
            kind: 'candidate',
            item: { requirementid: '{{create-1.createdId}}' },
            expect: { status: 'New' },
          },
        ],
      },
    });
    const detail = suiteDetailSchema.parse(added.json());
    expect(detail.version).toBe(2);
    expect(detail.suite.cases.slice(-2).map((entry) => [entry.id, entry.item])).toEqual([
      ['create-1-2', { note: 'x' }],
      ['then', { requirementid: '{{create-1-2.createdId}}' }],
    ]);
  });
});

describe('runs', () => {
  it('runs a stored suite as the QA engineer in two waves of batches, each sent once and journaled under the run, and compares each run with the one before', async () => {
    const created = suiteDetailSchema.parse(
      (await quinn.call('POST', '/api/suites', { body: { suite: regression('Nightly') } })).json(),
    );
    const first = await runToEnd(quinn, { suiteId: created.id });
    expect(first).toMatchObject({
      status: 'finished',
      suiteName: 'Nightly',
      suiteVersion: 1,
      connection: 'default',
      clientOrgId: 1001,
      casesTotal: 7,
      casesDone: 7,
      passed: 7,
      failed: 0,
      // Four requisitions together, then the three candidates that need their ids.
      batches: 2,
      previousRunId: null,
      verdicts: { new: 7, passing: 0, fixed: 0, 'still-failing': 0, 'newly-failing': 0 },
    });
    expect(first.startedBy?.email).toBe('quinn@example.com');
    expect(first.cases.find((entry) => entry.id === 'unknown-class')?.actual?.message).toMatch(
      /^reqclassid: 999 is not a req class/,
    );

    // Its calls are in the journal under it: two batches, each once, sent by the QA engineer.
    const journal = journalPageSchema.parse(
      (await quinn.call('GET', `/api/journal?run=${first.id}&method=POST`)).json(),
    ).entries;
    expect(journal).toHaveLength(2);
    expect(new Set(journal.map((call) => call.idempotencyKey)).size).toBe(2);
    expect(journal.map((call) => [call.suiteRun, call.replayed, call.sentBy?.email])).toEqual([
      [first.id, false, 'quinn@example.com'],
      [first.id, false, 'quinn@example.com'],
    ]);
    expect(journal.map((call) => call.itemCount).sort()).toEqual([3, 4]);
    const polls = journalPageSchema.parse(
      (await quinn.call('GET', `/api/journal?run=${first.id}&method=GET`)).json(),
    ).entries;
    expect(polls.length).toBeGreaterThanOrEqual(2);
    // Calls of no run are not in it.
    expect(polls.every((call) => call.suiteRun === first.id)).toBe(true);

    // Again: new per-run values, so no duplicate; every case passing as before.
    const second = await runToEnd(quinn, { suiteName: 'nightly' });
    expect(second).toMatchObject({ status: 'finished', failed: 0, previousRunId: first.id });
    expect(second.runToken).not.toBe(first.runToken);
    expect(second.cases.map((entry) => entry.verdict)).toEqual(Array(7).fill('passing'));

    // A wrong expectation saved as version 2: that case newly fails, expected beside actual.
    const wrong = regression('Nightly', 'Incomplete');
    await quinn.call('PUT', `/api/suites/${created.id}`, {
      body: { baseVersion: 1, suite: wrong },
    });
    const third = await runToEnd(quinn, { suiteId: created.id });
    expect(third).toMatchObject({
      suiteVersion: 2,
      passed: 6,
      failed: 1,
      previousRunId: second.id,
    });
    expect(third.verdicts?.['newly-failing']).toBe(1);
    expect(third.cases.find((entry) => !entry.passed)).toMatchObject({
      id: 'candidate-2',
      verdict: 'newly-failing',
      expected: { status: 'Incomplete' },
      actual: { status: 'New' },
      failure: 'expected Incomplete, got New',
    });

    // The list shows the latest run beside the suite; the JUnit report names the failure.
    const listed = suiteListSchema
      .parse((await quinn.call('GET', '/api/suites')).json())
      .suites.find((entry) => entry.id === created.id);
    expect(listed?.lastRun?.id).toBe(third.id);
    const junit = await quinn.call('GET', `/api/suite-runs/${third.id}/junit`);
    expect(junit.text).toMatch(/<testsuite name="Nightly" tests="7" failures="1" errors="0"/);
    expect(junit.text).toContain('<failure message="expected Incomplete, got New">');
  });

  it('runs a suite file sent with the run; refuses an unknown suite name listing those there are, and a connection the portal lacks', async () => {
    const file = await runToEnd(quinn, { suite: regression('From CI') });
    expect(file).toMatchObject({ suiteId: null, suiteVersion: null, passed: 7, failed: 0 });
    const again = await runToEnd(quinn, { suite: regression('From CI') });
    expect(again.previousRunId).toBe(file.id);

    const unknown = await quinn.call('POST', '/api/suite-runs', {
      body: { suiteName: 'Nope' },
    });
    expect(unknown.status).toBe(404);
    expect(apiErrorBodySchema.parse(unknown.json()).error.message).toMatch(
      /^There is no stored suite named "Nope"\. There are .*"Nightly"/,
    );
    const elsewhere = await quinn.call('POST', '/api/suite-runs', {
      body: { suiteName: 'Nightly', connection: 'uat' },
    });
    expect(apiErrorBodySchema.parse(elsewhere.json()).error).toMatchObject({
      code: 'unknown_connection',
      message: 'This portal has no VMS connection named "uat". It has default.',
    });
    const foreignOrg = await quinn.call('POST', '/api/suite-runs', {
      body: { suiteName: 'Nightly', clientOrgId: 1002 },
    });
    expect(foreignOrg.status).toBe(403);
    expect(apiErrorBodySchema.parse(foreignOrg.json()).error.message).toMatch(
      /^The run cannot be sent for client org 1002 on \S+ \(default\): choose one of 1001\. Nothing was run\.$/,
    );
  });

  it('runs green, twice, a suite saved from real items with generated values in place of the people’s', async () => {
    // What the save dialog does with items of a real send: generated personal values, then new
    // values for each run.
    const person = {
      firstname: 'Grace',
      lastname: 'Hopper',
      candemail: 'grace.hopper@navy.example',
      vendorcandidateid: 'GH-1906',
      availability: 'From 9 December',
      candidatecomments: 'Prefers mornings',
      [answerKey(1)]: 'Two weeks from signing',
    };
    const sent = [
      {
        kind: 'requisition' as const,
        item: requisitionInsert({ altemail: 'm.reyes@client.example' }),
        expect: { status: 'Success' as const },
      },
      {
        kind: 'candidate' as const,
        item: {
          ...candidateFor(40008, { requirementid: '{{req-1.createdId}}' }),
          ...person,
          [skillResponseKey('response', 1)]: '3',
        },
        expect: { status: 'New' as const },
      },
    ];
    const cases = sent.flatMap(({ kind, item, expect }, index) =>
      casesFromItems(
        kind,
        [
          {
            item: withGeneratedPersonalValues(kind, item, expect),
            idBase: index === 0 ? 'req-1' : 'cand-1',
            name: `item ${index + 1}`,
            expect,
          },
        ],
        { perRun: true },
      ),
    );
    const created = suiteDetailSchema.parse(
      (
        await quinn.call('POST', '/api/suites', {
          body: { suite: { name: 'From real items', cases } },
        })
      ).json(),
    );
    const stored = await quinn.call('GET', `/api/suites/${created.id}/export`);
    expect(stored.status).toBe(200);
    for (const value of [...Object.values(person), 'm.reyes@client.example']) {
      expect(stored.text, value).not.toContain(value);
    }

    const first = await runToEnd(quinn, { suiteId: created.id });
    expect(first).toMatchObject({ status: 'finished', passed: 2, failed: 0 });
    const second = await runToEnd(quinn, { suiteId: created.id });
    expect(second).toMatchObject({ status: 'finished', passed: 2, failed: 0 });
  });

  it('does not let a request made from outside pass as a run’s call', async () => {
    // A guessed header is no run's: the call is the recruiter's own, and refused as theirs.
    const forged = await rita.call(
      'POST',
      '/api/vms/requisitionimport?Client_Org_Id=1002&Vendor_Org_Id=9001',
      {
        body: [requisitionInsert()],
        headers: { 'x-portal-suite-run': '1.00', 'idempotency-key': crypto.randomUUID() },
      },
    );
    expect(forged.status).toBe(403);
    const calls = journalPageSchema.parse(
      (await quinn.call('GET', '/api/journal?org=1002')).json(),
    ).entries;
    expect(calls.map((call) => call.suiteRun)).toEqual([null]);
  });
});
