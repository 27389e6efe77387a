import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { auditPageSchema } from '@/domain/audit';
import { userRecordsSchema } from '@/domain/auth';
import { journalPageSchema } from '@/domain/journal';
import {
  subjectErasedSchema,
  subjectExportSchema,
  subjectFoundSchema,
} from '@/domain/personal-subject';
import type { Suite } from '@/domain/suite';
import { suiteDetailSchema, suiteRunSchema, type SuiteRun } from '@/domain/suite-run';
import { sandboxDemo } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startTestPortal, type TestPortal } from '@/test-support/capture-upstream';
import { personalTraces } from '@/test-support/personal-traces';
import { testStoreEnv } from '@/test-support/postgres-server';
import { startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { candidateFor, requisitionInsert } from '@/test-support/test-data';
import { queryTestDatabase, testDatabaseBytes } from '@/test-support/test-database';
import { openPrivacyService } from './privacy-routes';

/*
 * One person found, exported and erased (decision 059) on a started portal with sign-in on, in
 * front of the real sandbox: their data put in through the real routes (a suite run through the
 * proxy, so the journal, the watch, the suite and its run; drafts, a tray and a submission synced
 * by a recruiter's browser), then found, exported, erased; afterwards neither their e-mail nor
 * their name is anywhere in the database's bytes, and the rest still reads.
 */

const password = 'correct horse battery staple';
const email = 'zephyrine.quillfeather@example.org';
const first = 'Zephyrine';
const last = 'Quillfeather';

let dir: string;
let dbPath: string;
let sandbox: TestSandbox;
let portal: TestPortal;
let ada: TestBrowser;
let quinn: TestBrowser;
let rita: TestBrowser;
let suiteId: number;

const onPostgres =
  Boolean(process.env.DATABASE_URL) || process.env.PORTAL_TEST_STORE === 'postgres';
/** A batch sent with an Idempotency-Key, whose remembered answer names the person. */
const idempotencyKey = 'privacy-remembered-answer';
const keyedBatch = [candidateFor(40008, { firstname: 'Ines', lastname: 'Okafor' })];
const keyedPath = `/api/vms/candidates?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`;
let keyedAnswer: Record<string, unknown>;

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

const theirCandidate = (requirementid: string) =>
  candidateFor(40008, { requirementid, firstname: first, lastname: last, candemail: email });
const someoneElse = candidateFor(40008, { firstname: 'Omar', lastname: 'Reyes' });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'privacy-api-'));
  dbPath = join(dir, 'portal.db');
  sandbox = await startTestSandbox({ processingDelayMs: 0 });
  portal = await startTestPortal(
    loadConfig(
      testStoreEnv({
        VMS_BASE_URL: sandbox.url,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
        VMS_CLIENT_ORGS: '1001',
        VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
        VMS_PRODUCTION: 'off',
        AUTH: 'on',
        PORTAL_DB: dbPath,
      }),
    ),
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin', [1001]);
  await addUser(dbPath, 'quinn@example.com', password, 'qa', [1001]);
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  ada = new TestBrowser(portal.url);
  quinn = new TestBrowser(portal.url);
  rita = new TestBrowser(portal.url);
  for (const [browser, who] of [
    [ada, 'ada@example.com'],
    [quinn, 'quinn@example.com'],
    [rita, 'rita@example.com'],
  ] as const) {
    expect((await browser.signIn(who, password)).status).toBe(200);
  }

  // The journal, the watch, the suite and its run: a suite that makes a requisition and sends
  // them as a candidate to it, beside someone else.
  const suite: Suite = {
    name: 'Privacy',
    cases: [
      {
        id: 'req',
        kind: 'requisition',
        item: requisitionInsert({ clientinternalreq: 'PRIV-{{run.id}}' }),
        expect: { status: 'Success' },
      },
      {
        id: 'theirs',
        kind: 'candidate',
        item: theirCandidate('{{req.createdId}}'),
        expect: { status: 'New' },
      },
      {
        id: 'other',
        kind: 'candidate',
        item: { ...someoneElse, requirementid: '{{req.createdId}}' },
        expect: { status: 'New' },
      },
    ],
  };
  const created = await quinn.call('POST', '/api/suites', { body: { suite } });
  expect(created.status, created.text).toBe(201);
  suiteId = suiteDetailSchema.parse(created.json()).id;
  const run = await runToEnd(quinn, { suiteId, clientOrgId: 1001 });
  expect(run.status).toBe('finished');

  // A search whose filter compares the person's e-mail: their e-mail in a call's address (the
  // portal's path and the VMS's URL), not in a body.
  const searched = await quinn.call(
    'GET',
    `/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}&filterfield=candemail&filteroperator=%3D&filtervalue=${encodeURIComponent(email)}`,
  );
  expect(searched.status, searched.text).toBeLessThan(500);

  // A batch sent with an Idempotency-Key: its answer is remembered for a repeat. A VMS may name
  // the candidate in its answer; the sandbox does not, so the remembered answer is made to, as
  // such a VMS's would be.
  const keyed = await rita.call('POST', keyedPath, {
    headers: { 'idempotency-key': idempotencyKey },
    body: keyedBatch,
  });
  expect(keyed.status, keyed.text).toBe(202);
  keyedAnswer = keyed.json() as Record<string, unknown>;
  const named = JSON.stringify({
    ...keyedAnswer,
    items: [{ firstname: first, lastname: last, candemail: email }],
  });
  await queryTestDatabase(
    dbPath,
    `UPDATE idempotency_keys SET body = ${onPostgres ? `convert_to('${named}', 'UTF8')` : `CAST('${named}' AS BLOB)`}
     WHERE key = '${idempotencyKey}'`,
  );

  // What a recruiter's browser syncs: a draft, the tray, a submission.
  for (const collection of ['drafts', 'tray', 'submissions'] as const) {
    const answer = await rita.call('PUT', `/api/me/${collection}/about-them`, {
      body: { value: { items: [theirCandidate('40008'), someoneElse] }, baseVersion: 0 },
    });
    expect(answer.status, answer.text).toBe(200);
  }
});

afterAll(async () => {
  await portal.close();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const subject = { email: email.toUpperCase(), name: `${first} ${last}` };

/** What find lists and erase rewrites of the person beside the journal's bodies: one of each. */
const heldBeside = {
  suites: 1,
  drafts: 1,
  tray: 1,
  submissions: 1,
  journal_addresses: 1,
  idempotency: 1,
};

/**
 * The files the database keeps its rows in, each with its bytes: SQLite's file and WAL; on
 * PostgreSQL, after a checkpoint (so what the erasure wrote is in them), every file of the
 * database's tables, their TOAST tables and indexes, as the server has them on disk.
 */
async function databaseFiles(): Promise<[string, Buffer][]> {
  if (!onPostgres) {
    await queryTestDatabase(dbPath, 'PRAGMA wal_checkpoint(TRUNCATE)');
    return [dbPath, `${dbPath}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => [file, readFileSync(file)]);
  }
  await queryTestDatabase(dbPath, 'CHECKPOINT');
  const [{ dir } = { dir: '' }] = await queryTestDatabase<{ dir: string }>(
    dbPath,
    "SELECT current_setting('data_directory') AS dir",
  );
  const relations = await queryTestDatabase<{ name: string; path: string }>(
    dbPath,
    `SELECT c.relname AS name, pg_relation_filepath(c.oid) AS path FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND c.relkind IN ('r', 't', 'i')
       AND pg_relation_filepath(c.oid) IS NOT NULL`,
  );
  return relations.flatMap(({ name, path }) => {
    const base = join(dir, path);
    const segments = readdirSync(dirname(base)).filter(
      (file) => file === basename(base) || file.startsWith(`${basename(base)}.`),
    );
    return segments.map((file): [string, Buffer] => [
      `${name} (${file})`,
      readFileSync(join(dirname(base), file)),
    ]);
  });
}

function databaseText(): string {
  return testDatabaseBytes(dbPath).toString('latin1').toLowerCase();
}

describe('who may', () => {
  it('refuses a QA engineer and a recruiter with 403', async () => {
    for (const browser of [quinn, rita]) {
      const answer = await browser.call('POST', '/api/admin/privacy/find', { body: subject });
      expect(answer.status).toBe(403);
      expect(apiErrorBodySchema.parse(answer.json()).error.code).toBe('forbidden');
    }
  });

  it('refuses an erasure without a reason, saying what to give', async () => {
    const answer = await ada.call('POST', '/api/admin/privacy/erase', { body: subject });
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/reason/);
  });
});

describe('find, export, erase', () => {
  it('finds the person in the journal, the suite and each synced collection (a run keeps outcomes, not items)', async () => {
    const answer = await ada.call('POST', '/api/admin/privacy/find', { body: subject });
    expect(answer.status, answer.text).toBe(200);
    const { counts } = subjectFoundSchema.parse(answer.json());
    expect(counts.journal).toBeGreaterThanOrEqual(1);
    expect(counts).toMatchObject(heldBeside);
    expect(databaseText()).toContain(last.toLowerCase());
    expect(databaseText()).toContain(encodeURIComponent(email).toLowerCase());
  });

  it('exports every record held with its store, id and time, as JSON and as a page', async () => {
    const answer = await ada.call('POST', '/api/admin/privacy/export', {
      body: { ...subject, reason: 'Subject access request of 2026-11-29' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="personal-data-/);
    const held = subjectExportSchema.parse(answer.json());
    expect(new Set(held.records.map((record) => record.store))).toEqual(
      new Set(Object.keys(held.counts)),
    );
    const draft = held.records.find((record) => record.store === 'drafts');
    expect(draft?.items).toEqual([expect.objectContaining({ candemail: email, lastname: last })]);
    expect(JSON.stringify(held.records)).not.toContain('Omar');

    const page = await ada.call('POST', '/api/admin/privacy/export', {
      body: { ...subject, reason: 'Subject access request of 2026-11-29', format: 'html' },
    });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain(`Personal data held about ${first} ${last}`);
  });

  it('erases them everywhere: no byte of the database holds their e-mail or name', async () => {
    const answer = await ada.call('POST', '/api/admin/privacy/erase', {
      body: { ...subject, reason: `Erasure asked by ${email} on 2026-11-29` },
    });
    expect(answer.status, answer.text).toBe(200);
    const erased = subjectErasedSchema.parse(answer.json());
    expect(erased.counts).toMatchObject(heldBeside);
    expect(erased.counts.journal).toBeGreaterThanOrEqual(1);

    if (!process.env.DATABASE_URL && process.env.PORTAL_TEST_STORE !== 'postgres') {
      await queryTestDatabase(dbPath, 'PRAGMA wal_checkpoint(TRUNCATE)');
    }
    // The bytes, and each journal body inflated: a deflated body shows no form of them at all.
    expect(await personalTraces(dbPath, [email, first, last])).toEqual([]);
    const again = subjectFoundSchema.parse(
      (await ada.call('POST', '/api/admin/privacy/find', { body: subject })).json(),
    );
    expect(again.counts).toEqual({});
  });

  it('leaves no old version of a rewritten row in the database’s files, once compacted where it must be', async () => {
    // PostgreSQL's erasure vacuums without locking anyone out, which leaves old bytes in free
    // space; the operator's compact rewrites the tables whole. SQLite has nothing to compact.
    const compacted = await openPrivacyService(portal.app.database).compact();
    expect(compacted.length > 0).toBe(onPostgres);
    const forms = [email, first.toLowerCase(), last.toLowerCase()];
    const holding = (await databaseFiles()).flatMap(([file, bytes]) => {
      const text = bytes.toString('latin1').toLowerCase();
      return forms.filter((form) => text.includes(form)).map((form) => `${file}: ${form}`);
    });
    expect(holding).toEqual([]);
  });

  it('keeps the remembered answer, erased: a repeat of the batch is answered from it, not sent again', async () => {
    const repeat = await rita.call('POST', keyedPath, {
      headers: { 'idempotency-key': idempotencyKey },
      body: keyedBatch,
    });
    expect(repeat.status, repeat.text).toBe(202);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    const answer = repeat.json() as Record<string, unknown>;
    expect(answer).toMatchObject(keyedAnswer);
    expect(answer.items).toEqual([
      {
        firstname: expect.stringMatching(/^\[erased \d{4}-\d\d-\d\d\]$/u),
        lastname: expect.stringMatching(/^\[erased /u),
        candemail: expect.stringMatching(/^\[erased /u),
      },
    ]);
    expect(repeat.text).not.toContain(email);
  });

  it('leaves the search’s address with the placeholder where their e-mail was, the rest as sent', async () => {
    const [search] = journalPageSchema.parse(
      // As its sender sees it: in full.
      (await quinn.call('GET', '/api/journal?operation=requisitions&method=GET')).json(),
    ).entries;
    expect(search?.path).toMatch(
      /filterfield=candemail&filteroperator=%3D&filtervalue=%5Berased%20\d{4}-\d\d-\d\d%5D$/u,
    );
    expect(search?.path).toContain('Client_Org_Id=1001');
  });

  it('leaves the journal search finding nothing of them, and the rest of it as it was', async () => {
    const found = journalPageSchema.parse((await ada.call('GET', `/api/journal?q=${last}`)).json());
    expect(found.entries).toEqual([]);
    const others = journalPageSchema.parse((await ada.call('GET', '/api/journal?q=Reyes')).json());
    expect(others.entries.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps the suite, its runs and the synced records readable, their values a placeholder', async () => {
    const detail = suiteDetailSchema.parse(
      (await quinn.call('GET', `/api/suites/${suiteId}`)).json(),
    );
    const theirs = detail.suite.cases.find((entry) => entry.id === 'theirs');
    expect(theirs?.item).toMatchObject({
      candemail: expect.stringMatching(/^\[erased \d{4}-\d\d-\d\d\]$/),
    });
    expect(detail.suite.cases.find((entry) => entry.id === 'other')?.item).toMatchObject({
      lastname: 'Reyes',
    });
    expect((await quinn.call('GET', '/api/suite-runs')).status).toBe(200);
    // The browser's next sync brings the erased copy: a new version of the record.
    const drafts = userRecordsSchema.parse(
      (await rita.call('GET', '/api/me/drafts?since=1')).json(),
    );
    expect(drafts.records).toHaveLength(1);
    expect(JSON.stringify(drafts.records[0]?.value)).toContain('[erased ');
    expect(JSON.stringify(drafts.records[0]?.value)).toContain('Reyes');
  });

  it('records one event per export and erasure with the reason and counts, and no personal value', async () => {
    const page = auditPageSchema.parse(
      (await ada.call('GET', '/api/audit?event=personal_data_erased')).json(),
    );
    expect(page.entries).toHaveLength(1);
    const [event] = page.entries;
    expect(event?.email).toBe('ada@example.com');
    expect(event?.details.reason).toMatch(
      /^Erasure asked by \[erased \d{4}-\d\d-\d\d\] on 2026-11-29$/,
    );
    expect(event?.details.suites).toBe(1);
    expect(JSON.stringify(event)).not.toContain(last);
    const exported = auditPageSchema.parse(
      (await ada.call('GET', '/api/audit?event=personal_data_exported')).json(),
    );
    expect(exported.entries).toHaveLength(2);
  });

  it('finds a call made a moment before, still waiting in the journal’s queue', async () => {
    const someone = 'wendeline.achterberg@example.org';
    const searched = await quinn.call(
      'GET',
      `/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}&filterfield=candemail&filteroperator=%3D&filtervalue=${encodeURIComponent(someone)}`,
    );
    expect(searched.status, searched.text).toBeLessThan(500);
    // At once: the journal writes a call up to 50 ms after its answer.
    const answer = await ada.call('POST', '/api/admin/privacy/find', { body: { email: someone } });
    expect(subjectFoundSchema.parse(answer.json()).counts).toEqual({ journal_addresses: 1 });
  });
});
