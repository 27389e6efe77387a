import type { PayloadKind } from '../../../domain';
import { identityKey } from '../../../domain';
import type { Submission } from '../../batch/model/submissions-state';
import type { TrayItem } from '../../batch/model/tray-state';

/**
 * What an import's rows must not repeat (issue 13, point 3): the identities of the items in the
 * batch and of those sent for this client org, each with where it is, for the row's message.
 * The batch wins over the history (it is what the user will send next).
 */
export function knownIdentities(
  kind: PayloadKind,
  clientOrgId: number,
  trayItems: readonly TrayItem[],
  submissions: readonly Submission[],
): Array<[string, string]> {
  const known = new Map<string, string>();
  for (const submission of submissions) {
    if (submission.kind !== kind || submission.clientOrgId !== clientOrgId) continue;
    for (const item of submission.items) {
      const key = identityKey(kind, item);
      if (key !== '' && !known.has(key)) known.set(key, `was sent in batch ${submission.batchId}`);
    }
  }
  for (const item of trayItems) {
    const key = identityKey(kind, item.wire);
    if (key !== '') known.set(key, 'is already in the batch');
  }
  return [...known];
}
