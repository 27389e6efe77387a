import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requisitionFormToWire, validateRequisitionItem } from '@/domain';
import { startTestSandbox, type TestSandbox } from './sandbox-client';
import {
  candidateFor,
  fullCandidateForm,
  fullRequisitionForm,
  validRequisitionWire,
} from './test-data';

// The test data's ids must exist in the sandbox's seed: the same items pass the domain's rules
// and the sandbox's server-side ones (users, req classes, accounting references, requisitions).

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

describe('the test data', () => {
  it('full requisitions pass the domain and are created by the sandbox', async () => {
    const items = [0, 1, 2].map((i) => requisitionFormToWire(fullRequisitionForm(i), 'YYYY-MM-DD'));
    for (const item of items)
      expect(validateRequisitionItem(item, { dateFormat: 'YYYY-MM-DD' }).ok).toBe(true);
    const rows = await sandbox.importRequisitions(items);
    expect(rows.map((row) => [row.Status, row.ErrorMessage])).toEqual(
      items.map(() => ['Success', '']),
    );
  });

  it('the smallest valid Insert is created by the sandbox', async () => {
    // Its reference is its own (the full ones above use CIR-000000…CIR-000002).
    const [row] = await sandbox.importRequisitions([
      { ...validRequisitionWire(), clientinternalreq: 'CIR-SMALLEST' },
    ]);
    expect([row?.Status, row?.ErrorMessage]).toEqual(['Success', '']);
  });

  it('candidates target requisitions of the seed that take submissions', async () => {
    const reqIds = [0, 1, 2, 3, 4, 5].map((i) => fullCandidateForm(i).requirementid);
    const listed = await sandbox.listRequisitions();
    for (const reqId of reqIds) {
      const record = listed.find((candidate) => candidate.Req_Id === reqId);
      expect(record?.ReqStatus, reqId).toMatch(/^[45]$/);
    }
    const [row] = await sandbox.submitCandidates([candidateFor(40001)]);
    expect(row?.Status).toBe('New');
  });
});
