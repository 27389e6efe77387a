import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditPageSchema } from '@/domain/audit';
import { userRecordsSchema } from '@/domain/auth';
import { subjectExportSchema } from '@/domain/personal-subject';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { candidateFor } from '@/test-support/test-data';
import { privacyUsage, runPrivacyCli } from './privacy-cli';

/*
 * `npm run privacy` on the database of a running portal: find, export to a file, erase; the
 * portal's own reads see the erasure, and the audit trail has the command line's events.
 */

const password = 'correct horse battery staple';
const email = 'odalys.brightwater@example.net';
let dir: string;
let dbPath: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let ada: TestBrowser;
let rita: TestBrowser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'privacy-cli-'));
  dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath }));
  await addUser(dbPath, 'ada@example.com', password, 'admin', [1001]);
  await addUser(dbPath, 'rita@example.com', password, 'recruiter', [1001]);
  ada = new TestBrowser(portal.url);
  rita = new TestBrowser(portal.url);
  await ada.signIn('ada@example.com', password);
  await rita.signIn('rita@example.com', password);
  const theirs = candidateFor(40008, {
    firstname: 'Odalys',
    lastname: 'Brightwater',
    candemail: email,
  });
  const answer = await rita.call('PUT', '/api/me/drafts/theirs', {
    body: { value: { items: [theirs] }, baseVersion: 0 },
  });
  expect(answer.status).toBe(200);
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runPrivacyCli(argv, {
    env: { PORTAL_DB: dbPath },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('npm run privacy', () => {
  it('refuses a missing reason for an erasure and an unknown command, with the usage', async () => {
    const erase = await run('erase', email);
    expect(erase.code).toBe(2);
    expect(erase.stderr).toMatch(/Say why this person is erased/);
    const unknown = await run('forget', email);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: `Unknown command "forget".\n${privacyUsage}\n`,
    });
  });

  it('says SQLite has nothing to compact, and refuses an e-mail given to compact', async () => {
    expect(await run('compact')).toEqual({
      code: 0,
      stdout: 'Nothing to compact: SQLite zeroes what an erasure frees as it goes.\n',
      stderr: '',
    });
    expect(await run('compact', email)).toMatchObject({
      code: 2,
      stderr: `compact takes no e-mail address.\n${privacyUsage}\n`,
    });
  });

  it('finds the person store by store', async () => {
    expect(await run('find', email.toUpperCase())).toEqual({
      code: 0,
      stdout: 'drafts: 1\n',
      stderr: '',
    });
  });

  it('exports what is held to a file', async () => {
    const file = join(dir, 'held.json');
    const exported = await run('export', email, '--out', file);
    expect(exported.code, exported.stderr).toBe(0);
    const held = subjectExportSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(held.records).toEqual([
      expect.objectContaining({
        store: 'drafts',
        items: [expect.objectContaining({ candemail: email, lastname: 'Brightwater' })],
      }),
    ]);
  });

  it('erases them; the portal serves the erased copy and the trail has both events', async () => {
    const erased = await run('erase', email, '--reason', 'Their request of 29 November');
    expect(erased.code, erased.stderr).toBe(0);
    expect(erased.stdout).toMatch(/^Erased at .*:\ndrafts: 1\n$/);
    expect(await run('find', email)).toMatchObject({ stdout: 'Nothing held about this person.\n' });
    const drafts = userRecordsSchema.parse(
      (await rita.call('GET', '/api/me/drafts?since=0')).json(),
    );
    expect(JSON.stringify(drafts.records)).not.toContain('Brightwater');
    const trail = auditPageSchema.parse(
      (await ada.call('GET', '/api/audit?event=personal_data_erased')).json(),
    );
    expect(trail.entries.map((entry) => entry.details)).toEqual([
      { via: 'command line', reason: 'Their request of 29 November', records: 1, drafts: 1 },
    ]);
  });
});
