import type { PortalConfigResponse } from '@/domain/portal-config';
import type { StartedRequest } from '@/shared/api/http';
import { requestHeaders } from '@/shared/api/request-headers';
import { vmsUrl } from '@/shared/api/vms';
import { databaseMayExist } from '@/shared/storage/database-exists';
import { databases } from '@/shared/storage/user-owned';
import { listRequestFrom } from './list-request';
import type { SyncRequest } from './sync';

/*
 * The first thing the list's worker does (sync.worker.ts), before the rest of its code has
 * loaded: that code's evaluation (zod above all) took 90 to 220 ms at a 4× CPU throttle, and on a
 * first visit the VMS's answer can be on its way meanwhile. So this module loads no zod, no
 * React and no stores (src/shared/requisitions/first-load.test.ts holds it to that).
 */

/** What the page's start script tells the worker in its address's fragment. */
export interface StartData {
  /** The settings in the page (`#portal-config`), as text. */
  config: string | null;
  /** The stored texts the first request depends on (listRequestStores), by key. */
  storage: Record<string, string | null>;
}

/** The fragment of the worker's address as the start script writes it; null for anything else. */
export function readStartData(hash: string): StartData | null {
  if (hash.length <= 1) return null;
  let data: unknown;
  try {
    data = JSON.parse(decodeURIComponent(hash.slice(1)));
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { config, storage } = data as Record<string, unknown>;
  if (config !== null && typeof config !== 'string') return null;
  if (typeof storage !== 'object' || storage === null) return null;
  const texts = Object.entries(storage);
  if (!texts.every(([, text]) => text === null || typeof text === 'string')) return null;
  return { config, storage: Object.fromEntries(texts) as Record<string, string | null> };
}

/** A first visit's whole list, asked for as the worker started. */
export interface FirstLoad {
  request: SyncRequest;
  connection: string | null;
  started: StartedRequest;
}

/**
 * On a first visit (no choice stored, no copy of any list in this browser), asks for the list the
 * page will show at once, as the sync would (listRequestFrom with no choices; GET Requisitions
 * with requestHeaders); null otherwise: with a stored choice (read only through its schema) or a
 * copy (the sync then asks only for changes), the worker's code asks once it has loaded. The
 * settings are read unchecked here: the sync takes this answer only for the request it works out
 * from the checked settings (sync-worker.ts), and cancels it otherwise.
 */
export async function startFirstLoad({ config, storage }: StartData): Promise<FirstLoad | null> {
  if (Object.values(storage).some((text) => text !== null)) return null;
  let first: ReturnType<typeof listRequestFrom>;
  try {
    first = listRequestFrom(JSON.parse(config ?? 'null') as PortalConfigResponse, {
      connection: null,
      clientOrg: null,
    });
  } catch {
    return null;
  }
  if (!first || (await databaseMayExist(databases.requisitions))) return null;
  const url = vmsUrl('requisitions', first.request.orgs);
  const controller = new AbortController();
  const response = fetch(url, {
    headers: requestHeaders(url, first.connection, { json: false }),
    credentials: 'same-origin',
    signal: controller.signal,
  });
  // Its failure is the sync's to report, when it takes it; untaken, it is nobody's.
  response.catch(() => undefined);
  return { ...first, started: { response, abort: () => controller.abort() } };
}
