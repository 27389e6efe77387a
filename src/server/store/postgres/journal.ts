import type { JournalStore } from '../journal-store';
import type { PortalPool } from './pool';

/** The call journal in PostgreSQL (decision 025, 027). */
export function createPostgresJournalStore(pool: PortalPool): JournalStore {
  void pool;
  throw new Error('not yet written');
}
