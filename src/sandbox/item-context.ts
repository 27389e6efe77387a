import type { DateFormat } from '@/domain';
import type { BlankMaximumBillRate } from '@/domain/settings';
import type { ClientReference } from './reference';
import type { ItemOutcome, SandboxStore } from './store';

/** What processing one batch item needs: the client it belongs to, storage, settings, the time. */
export interface ItemContext {
  client: ClientReference;
  vendorOrgId: number;
  store: SandboxStore;
  dateFormat: DateFormat;
  /** ISO date-time (whole seconds, UTC) stamped on what the item creates or changes. */
  nowIso: string;
  /** Today's UTC date, ISO, for "has the no-new-submittals date passed". */
  todayIso: string;
  /** How a requisition without a `maximumbillrate` limits a candidate's bill rate. */
  blankMaximumBillRate: BlankMaximumBillRate;
}

export function errorOutcome(message: string, reference: string, resultId = ''): ItemOutcome {
  return { status: 'Error', errorMessage: message, resultId, reference };
}

/**
 * A string field of an item as posted, before validation: results show ClientInternalReq and
 * Vendor_Candidate_Id even for a Pending or invalid item.
 */
export function postedString(payload: unknown, key: string): string {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return '';
  const value: unknown = Reflect.get(payload, key);
  return typeof value === 'string' ? value : '';
}
