import { chosenOrgStore } from '@/shared/config/client-org';
import { chosenConnectionStore } from '@/shared/config/current-connection';

/** Where listRequestFrom's choices are kept: a worker is told their stored texts. */
export const listRequestStores = { connection: chosenConnectionStore, clientOrg: chosenOrgStore };
