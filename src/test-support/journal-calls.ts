import type { JournalEntry } from '@/domain/journal';
import type { JournalRecord } from '@/server/journal/store/journal-store';

/**
 * For tests: what the journal's tests' calls have in common, a one-item requisitionimport POST to
 * client 1001 for vendor 9001 that the VMS accepted (202), with no Idempotency-Key, checked and
 * not a replay. The three shapes a call takes (the proxy's CallToRecord, the store's
 * JournalRecord, the API's JournalEntry) share these fields; a test spreads them first and writes
 * out what it is about after them.
 */
export const acceptedImport = {
  operation: 'requisitionimport',
  method: 'POST',
  path: '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001',
  clientOrgId: 1001,
  vendorOrgId: 9001,
  itemCount: 1,
  idempotencyKey: null,
  replayed: false,
  status: 202,
  upstreamStatus: 202,
  outcome: 'forwarded',
  errorCode: null,
  failure: null,
  replayOf: null,
  unchecked: false,
} as const satisfies Partial<JournalRecord> & Partial<JournalEntry>;
