import { z } from 'zod';
import { localStore, storageKey } from '@/shared/storage/local-store';

export { clientOrgOf } from '@/domain/connection-choice';

/** The client org chosen in this browser (the header's select). */
export const chosenOrgStore = localStore(
  storageKey('client-org'),
  z.number().int().nullable(),
  null,
);
