import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalEntrySchema, journalPageSchema } from '@/domain/journal';
import type { VmsProfile } from '@/domain/vms-profile';
import { signRequest, signatureHeaders } from '@/node/signature';
import { sandboxDemo } from '@/sandbox/index';
import { candidateFor, requisitionInsert } from '@/test-support/test-data';
import { loadConfig } from './config';
import { startPortal, type RunningPortal } from './start';

/*
 * The portal against a VMS whose profile differs from its own dialect in every group: other
 * paths, a nested batch id under another status, other result fields and status words, candidate
 * rows without row numbers, a paged list with payload-named fields and US dates, another error
 * shape. The embedded sandbox answers in that profile; the browser's API must not notice.
 */

const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';
let dir: string;
let portal: RunningPortal;
let profile: VmsProfile;

async function call(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await request(`${portal.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, json: () => JSON.parse(text) as unknown };
}

/** The VMS's own answer, straight from the sandbox in its profile (no portal between). */
async function upstreamText(path: string): Promise<string> {
  const { headers } = signRequest(profile.signature, {
    apiKey: sandboxDemo.apiKey,
    secret: sandboxDemo.apiSecret,
  });
  const res = await request(`${portal.upstreamUrl}/${path}`, { headers });
  return res.body.text();
}

async function settledRows(operation: string, batchId: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const res = await call('GET', `/api/vms/${operation}?${orgs}&batchid=${batchId}`);
    expect(res.status).toBe(200);
    const rows = res.json() as Array<Record<string, unknown>>;
    if (rows.length > 0 && rows.every((row) => (row.Cand_Status ?? row.Status) !== 'Pending')) {
      return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('results never settled');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-profile-'));
  // The documented example, with pages of 5 so the seeded list takes several.
  const example = JSON.parse(readFileSync('docs/examples/profile-other-vms.json', 'utf8'));
  example.list.paging.pageSize = 5;
  const profileFile = join(dir, 'profile.json');
  writeFileSync(profileFile, JSON.stringify(example));
  const config = loadConfig({
    PORT: '0',
    SANDBOX_PORT: '0',
    SANDBOX_DB: join(dir, 'sandbox.db'),
    PORTAL_DB: join(dir, 'portal.db'),
    VMS_PROFILE: profileFile,
    LOG_LEVEL: 'silent',
  });
  profile = config.profile;
  portal = await startPortal(config, { sandbox: { processingDelayMs: 0 } });
});

afterAll(async () => {
  await portal.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a VMS with another profile', () => {
  it('takes a requisition batch and gives its results in the portal’s own terms', async () => {
    const good = requisitionInsert({ startdate: '02/01/2027', enddate: '07/30/2027' });
    const bad = requisitionInsert({ startdate: '2027-02-01' });
    const sent = await call('POST', `/api/vms/requisitionimport?${orgs}`, [good, bad]);
    expect(sent.status).toBe(200);
    const { batchid } = sent.json() as { batchid: string };
    expect(batchid).toMatch(/^rb_/);

    const rows = await settledRows('requisitionresults', batchid);
    expect(rows).toEqual([
      {
        Batch_Id: batchid,
        Row: 1,
        Status: 'Success',
        ErrorMessage: '',
        Req_Id: expect.stringMatching(/^\d+$/),
        ClientInternalReq: good.clientinternalreq,
      },
      {
        Batch_Id: batchid,
        Row: 2,
        Status: 'Error',
        ErrorMessage: expect.stringContaining('startdate'),
        Req_Id: '',
        ClientInternalReq: bad.clientinternalreq,
      },
    ]);
    // What the VMS itself said: its own words, its own places.
    const raw = JSON.parse(
      await upstreamText(`api/v2/batches/${batchid}/requisition-results?${orgs}`),
    );
    expect(raw.data.rows[0]).toMatchObject({ line: 1, state: 'DONE' });
    expect(raw.data.rows[1]).toMatchObject({ line: 2, state: 'FAILED' });
  });

  it('reads candidate rows that come in submission order, with their own status words', async () => {
    const complete = candidateFor(40001);
    const partial = candidateFor(40001, { answer1: '' });
    const sent = await call('POST', `/api/vms/candidates?${orgs}`, [complete, partial]);
    expect(sent.status).toBe(200);
    const { batchid } = sent.json() as { batchid: string };
    const rows = await settledRows('candidateresults', batchid);
    expect(rows.map((row) => [row.Row, row.Cand_Status, row.Vendor_Candidate_Id])).toEqual([
      [1, 'New', complete.vendorcandidateid],
      [2, 'Incomplete', partial.vendorcandidateid],
    ]);
    const raw = JSON.parse(
      await upstreamText(`api/v2/batches/${batchid}/candidate-results?${orgs}`),
    );
    expect(raw.results.map((row: Record<string, unknown>) => row.outcome)).toEqual([
      'SUBMITTED',
      'PARTIAL',
    ]);
    expect(raw.results[0]).not.toHaveProperty('line');
  });

  it('reads every page of the list, PascalCase with ISO times, and filters by date-time', async () => {
    const res = await call('GET', `/api/vms/requisitions?${orgs}`);
    expect(res.status).toBe(200);
    const records = res.json() as Array<Record<string, string>>;
    const seeded = records.find((record) => record.Req_Id === '40001');
    expect(seeded).toMatchObject({
      Req_Id: '40001',
      Req_Created_Date_Time: '2026-01-05T09:00:00Z',
      Req_Updated_Date_Time: '2026-03-02T14:30:00Z',
      TitleRole: 'Senior Java Developer',
      StartDate: '01/11/2027',
      ClientInternalReq: 'NW-REQ-0001',
    });
    // More than one page of 5, and none twice.
    expect(records.length).toBeGreaterThan(10);
    expect(new Set(records.map((record) => record.Req_Id)).size).toBe(records.length);

    const recent = await call(
      'GET',
      `/api/vms/requisitions?${orgs}&filterfield=Req_Updated_Date_Time&filteroperator=%3E%3D&filtervalue=2026-03-02T14:30:00Z`,
    );
    const recentIds = (recent.json() as Array<Record<string, string>>).map((r) => r.Req_Id);
    expect(recentIds).toContain('40001');
    expect(recentIds.length).toBeLessThan(records.length);
    expect(
      (recent.json() as Array<Record<string, string>>).every(
        (record) => (record.Req_Updated_Date_Time ?? '') >= '2026-03-02T14:30:00Z',
      ),
    ).toBe(true);
  });

  it('signs as the profile says: the sandbox’s own way is refused', async () => {
    const res = await request(`${portal.upstreamUrl}/api/v2/requisitions?${orgs}`, {
      headers: signatureHeaders(sandboxDemo.apiKey, sandboxDemo.apiSecret),
    });
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(await res.body.text())).toEqual({ fault: { detail: 'Not Authorized' } });
  });

  it('says what the VMS said when it refuses, in the portal’s error shape', async () => {
    const res = await call('GET', `/api/vms/requisitionresults?${orgs}&batchid=rb_nope`);
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({
      error: {
        code: 'vms_error',
        message: expect.stringContaining("no requisition batch 'rb_nope'"),
      },
    });
  });

  it('journals each page and each call as the VMS answered it, with the batch id', async () => {
    const page = journalPageSchema.parse((await call('GET', '/api/journal?limit=200')).json());
    const lists = page.entries.filter((entry) => entry.operation === 'requisitions');
    // Two browser calls: the whole list (several pages, each an entry) and the filtered one.
    expect(lists.length).toBeGreaterThan(3);
    const post = page.entries.find((entry) => entry.operation === 'requisitionimport');
    expect(post?.batchId).toMatch(/^rb_/);
    const full = journalEntrySchema.parse((await call('GET', `/api/journal/${post?.id}`)).json());
    expect(full.url).toContain('/api/v2/requisitions/import?');
    expect(JSON.parse(full.responseBody?.text ?? '')).toEqual({
      data: { batch: { id: post?.batchId } },
    });
  });
});

describe('the sandbox speaking another profile', () => {
  it('answers its own dialect’s paths with 404, as that VMS would', async () => {
    const { headers } = signRequest(profile.signature, {
      apiKey: sandboxDemo.apiKey,
      secret: sandboxDemo.apiSecret,
    });
    // The sandbox's own list path: a 200 with its records, were it answered.
    const res = await request(`${portal.upstreamUrl}/requisitions?${orgs}`, { headers });
    expect(res.statusCode).toBe(404);
    await res.body.dump();
  });
});
