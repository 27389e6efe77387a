import { local, storageKey } from '@/shared/storage/local-store';
import { ownerPart } from '@/shared/storage/user-owned';

/** The tag naming the user the work under the plain storage keys belongs to. */
export const ownerKey = storageKey(ownerPart);

export function localOwner(): string | null {
  return local()?.getItem(ownerKey) ?? null;
}
