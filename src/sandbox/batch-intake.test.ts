import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSandbox } from '@/test-support/sandbox-client';
import { errorOf, startTestSandbox } from '@/test-support/sandbox-client';
import { candidateFor, requisitionInsert } from '@/test-support/test-data';
import { seedAccounts } from './seed';

const secondVendor = seedAccounts[1];
if (!secondVendor) throw new Error('The seed has a second vendor key.');

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ maxBatch: 3 });
});
afterAll(() => sandbox.close());

describe('POST bodies', () => {
  it('accepts an array of requisition objects with 202, a batch id and the count', async () => {
    const result = await sandbox.call('/requisitionimport', {
      body: [requisitionInsert(), requisitionInsert()],
    });
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ batchid: expect.stringMatching(/^rb_[\w-]{20,}$/), received: 2 });
  });

  it('accepts candidates the same way, with a candidate batch id', async () => {
    const result = await sandbox.call('/candidates', { body: [candidateFor(40001)] });
    expect(result.status).toBe(202);
    expect(result.body).toEqual({ batchid: expect.stringMatching(/^cb_/), received: 1 });
  });

  it('refuses a body that is not JSON with 400 malformed_request', async () => {
    const result = await sandbox.call('/requisitionimport', { rawBody: '[{"titlerole": }' });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe('malformed_request');
    expect(errorOf(result).message).toMatch(/not valid JSON/);
  });

  it('refuses an empty body', async () => {
    const result = await sandbox.call('/requisitionimport', { rawBody: '', method: 'POST' });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe('malformed_request');
  });

  it('refuses a body not sent as application/json, naming the Content-Type', async () => {
    const result = await sandbox.call('/requisitionimport', {
      rawBody: JSON.stringify([requisitionInsert()]),
      contentType: 'text/plain',
    });
    expect(result.status).toBe(400);
    expect(errorOf(result).message).toMatch(/Content-Type is 'text\/plain'/);
  });

  it('refuses a single object that is not in an array, saying to wrap it', async () => {
    const result = await sandbox.call('/requisitionimport', { body: requisitionInsert() });
    expect(result.status).toBe(400);
    expect(errorOf(result)).toMatchObject({ code: 'invalid_body' });
    expect(errorOf(result).message).toMatch(
      /it is an object; put the requisition object\(s\) inside \[ \]/,
    );
  });

  it('refuses an empty array', async () => {
    const result = await sandbox.call('/candidates', { body: [] });
    expect(result.status).toBe(400);
    expect(errorOf(result).message).toBe(
      'The body is an empty array; send at least one candidate object.',
    );
  });

  it('refuses an array holding non-objects, listing each bad item', async () => {
    const result = await sandbox.call('/requisitionimport', {
      body: [requisitionInsert(), 'titlerole', [1]],
    });
    expect(result.status).toBe(400);
    const error = errorOf(result);
    expect(error.message).toMatch(/item 2 is a string \(and 1 more item, listed in details\)/);
    expect(error.details).toEqual([
      { field: 'item 2', message: 'is a string, not a requisition object' },
      { field: 'item 3', message: 'is an array, not a requisition object' },
    ]);
    const single = await sandbox.call('/candidates', { body: [null] });
    expect(errorOf(single).message).toMatch(
      /^Every item of the array must be a candidate object \(.*\), but item 1 is null; fix/,
    );
  });

  it('accepts exactly maxBatch items and refuses one more, saying how to split', async () => {
    const three = [requisitionInsert(), requisitionInsert(), requisitionInsert()];
    expect((await sandbox.call('/requisitionimport', { body: three })).status).toBe(202);
    const result = await sandbox.call('/requisitionimport', {
      body: [...three, requisitionInsert()],
    });
    expect(result.status).toBe(400);
    expect(errorOf(result).message).toMatch(/has 4 requisitions, more than the 3 .* at most 3/);
  });

  it('refuses a body over 5 MB with 413 body_too_large', async () => {
    const big = [requisitionInsert({ completedescription: 'x'.repeat(5 * 1024 * 1024) })];
    const result = await sandbox.call('/requisitionimport', { body: big });
    expect(result.status).toBe(413);
    expect(errorOf(result).code).toBe('body_too_large');
  });
});

describe('batch results', () => {
  it('lists one row per item in order, processing valid items and failing invalid ones', async () => {
    const valid = requisitionInsert();
    const invalid = requisitionInsert({ titlerole: '' });
    const rows = await sandbox.importRequisitions([valid, invalid]);
    expect(rows).toEqual([
      expect.objectContaining({
        Row: 1,
        Status: 'Success',
        ErrorMessage: '',
        Req_Id: expect.stringMatching(/^\d+$/),
        ClientInternalReq: valid.clientinternalreq,
      }),
      expect.objectContaining({
        Row: 2,
        Status: 'Error',
        ErrorMessage: expect.stringMatching(/^titlerole: /),
        Req_Id: '',
        ClientInternalReq: invalid.clientinternalreq,
      }),
    ]);
  });

  it("names the candidate status twice, as Status and as the real service's Cand_Status", async () => {
    const [row] = await sandbox.submitCandidates([
      candidateFor(40001, { vendorcandidateid: 'V-77' }),
    ]);
    expect(row).toMatchObject({
      Row: 1,
      Status: 'New',
      Cand_Status: 'New',
      Vendor_Candidate_Id: 'V-77',
    });
    expect(row?.Cand_Id).toMatch(/^\d+$/);
  });

  it('answers an unknown batch with 404 unknown_batch', async () => {
    const result = await sandbox.call('/requisitionresults', { query: { batchid: 'rb_nothing' } });
    expect(result.status).toBe(404);
    expect(errorOf(result).code).toBe('unknown_batch');
  });

  it('needs batchid', async () => {
    const result = await sandbox.call('/candidateresults');
    expect(result.status).toBe(400);
    expect(errorOf(result)).toMatchObject({ code: 'missing_parameter' });
    expect(errorOf(result).message).toContain('batchid');
  });

  it('hides a batch from another client org and from another vendor', async () => {
    const batchId = await sandbox.postRequisitions([requisitionInsert()]);
    const otherClient = await sandbox.call('/requisitionresults', {
      query: { batchid: batchId, Client_Org_Id: 1002 },
    });
    expect(otherClient.status).toBe(404);
    const otherVendor = await sandbox.call('/requisitionresults', {
      apiKey: secondVendor.apiKey,
      secret: secondVendor.secret,
      query: { batchid: batchId, Vendor_Org_Id: 9002 },
    });
    expect(otherVendor.status).toBe(404);
    expect(errorOf(otherVendor).code).toBe('unknown_batch');
  });

  it('does not give a requisition batch from candidateresults, and says where to look', async () => {
    const batchId = await sandbox.postRequisitions([requisitionInsert()]);
    const result = await sandbox.call('/candidateresults', { query: { batchid: batchId } });
    expect(result.status).toBe(404);
    expect(errorOf(result).message).toMatch(/is a requisition batch.*GET \/requisitionresults/);
  });
});

describe('answering before processing', () => {
  it('stores the batch and answers while every item still reads Pending', async () => {
    const slow = await startTestSandbox({ processingDelayMs: 60_000 });
    try {
      const items = [requisitionInsert(), requisitionInsert()];
      const batchId = await slow.postRequisitions(items);
      const rows = await slow.requisitionResults(batchId);
      expect(rows.map((row) => [row.Row, row.Status, row.Req_Id, row.ClientInternalReq])).toEqual([
        [1, 'Pending', '', items[0]?.clientinternalreq],
        [2, 'Pending', '', items[1]?.clientinternalreq],
      ]);
    } finally {
      await slow.close();
    }
  });
});
