import type { BatchKind, WireItem } from '@/core/batch/model/batch-kind';
import { readItem as read } from '@/core/batch/model/result-fields';
import { repeatedItems, requisitionPayload } from '@/domain';
import { requisitionKeys } from '@/shared/requisitions';
import {
  findSentRequisitions,
  requisitionAdvice,
  requisitionChanges,
  requisitionsBeforeSend,
  resolveHeldRequisition,
} from './requisition-checks';

/**
 * Two Inserts with the same client internal req in one batch: the VMS refuses the second
 * (decision 000: clientinternalreq is unique within the client organization).
 */
function duplicateInserts(items: readonly WireItem[]): ReadonlyMap<number, string> {
  const repeats = repeatedItems(items, (item) =>
    read(item, 'requesttype') === 'I' ? read(item, 'clientinternalreq') : '',
  );
  return new Map(
    [...repeats].map(([index, { first, identity }]) => [
      index,
      `Item ${first + 1} already inserts client internal req “${identity}”, which must be unique; change one of them.`,
    ]),
  );
}

export const requisitionKind: BatchKind = {
  ...requisitionPayload,
  summarize: (item, loaded) => {
    const amend = read(item, 'requesttype') === 'A';
    return {
      badge: amend ? 'A' : 'I',
      badgeLabel: amend ? 'Amend' : 'Insert',
      reference: read(item, 'clientinternalreq'),
      // An Amend's wire holds only its changes: name it by its title as loaded.
      title: read(item, 'titlerole') || (loaded?.values.titlerole ?? ''),
    };
  },
  changes: requisitionChanges,
  advice: requisitionAdvice,
  beforeSend: requisitionsBeforeSend,
  findSent: findSentRequisitions,
  resolveHeld: resolveHeldRequisition,
  batchProblems: duplicateInserts,
  formPath: (item) =>
    read(item, 'requesttype') === 'A' ? '/requisitions/amend' : '/requisitions/new',
  createdIdPath: (id) =>
    `/requisitions?${new URLSearchParams({ field: 'Req_Id', op: '=', value: id }).toString()}`,
  affects: requisitionKeys.all,
};
