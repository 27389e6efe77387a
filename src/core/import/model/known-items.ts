import type { Submission } from '@/core/batch/model/submissions-state';
import type { TrayItem } from '@/core/batch/model/tray-state';
import type { PayloadKind, RequisitionRecord } from '@/domain';
import { identityKey, identityKeyOf, payloadKindOf } from '@/domain';

/**
 * What an import's rows must not repeat: the identities of the items in the
 * batch, of the client org's requisitions in the VMS (the browser's copy of the list) and of
 * those sent from this browser, each with where it is, for the row's message. The batch says
 * most (it is what goes next), then the VMS, then the history.
 */
export function knownIdentities(
  kind: PayloadKind,
  clientOrgId: number,
  trayItems: readonly TrayItem[],
  submissions: readonly Submission[],
  vmsRequisitions: readonly RequisitionRecord[] = [],
): Array<[string, string]> {
  const known = new Map<string, string>();
  for (const submission of submissions) {
    if (submission.kind !== kind || submission.clientOrgId !== clientOrgId) continue;
    for (const item of submission.items) {
      const key = identityKey(kind, item);
      if (key !== '' && !known.has(key)) known.set(key, `was sent in batch ${submission.batchId}`);
    }
  }
  const ofListed = payloadKindOf(kind).identity.ofListed;
  if (ofListed)
    for (const record of vmsRequisitions) {
      const key = identityKeyOf(kind, ofListed(record));
      if (key !== '') known.set(key, `is already in the VMS as requisition ${record.reqId}`);
    }
  for (const item of trayItems) {
    const key = identityKey(kind, item.wire);
    if (key !== '') known.set(key, 'is already in the batch');
  }
  return [...known];
}
