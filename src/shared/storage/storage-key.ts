/**
 * The portal's keys in browser storage, apart from the stores that read them (local-store.ts) so
 * that code which only names a key (the list's worker as it starts) loads nothing else.
 */
export const storagePrefix = 'vms-portal:v1:';

export function storageKey(...parts: Array<string | number>): string {
  return storagePrefix + parts.join(':');
}
