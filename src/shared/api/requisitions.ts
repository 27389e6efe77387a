import type {
  RequisitionFilterField as FilterField,
  RequisitionFilterOperator as FilterOperator,
} from '../../domain/vms-contract';
import { dateFilterConditions, meetsCondition } from '../../domain/vms-contract';
import { queryOptions } from '@tanstack/react-query';
import type { RequisitionRecord } from '../../domain';
import { requisitionListSchema } from '../../domain';
import {
  clearRequisitionCopies,
  readRequisitionCopy,
  writeRequisitionCopy,
} from '../storage/requisition-cache';
import { requestJson } from './http';
import type { OrgScope } from './vms';
import { vmsUrl } from './vms';

/**
 * GET Requisitions through the proxy (decisions.md, "Operations and their responses"), with the
 * filter the API takes: a field, an operator and a value.
 */
export {
  requisitionFilterFields as filterFields,
  requisitionFilterOperators as filterOperators,
} from '../../domain/vms-contract';
export type {
  RequisitionFilterField as FilterField,
  RequisitionFilterOperator as FilterOperator,
} from '../../domain/vms-contract';

export interface RequisitionFilter {
  field: FilterField;
  operator: FilterOperator;
  value: string;
}

export async function fetchRequisitions(
  orgs: OrgScope,
  filter: RequisitionFilter | null,
  signal: AbortSignal,
  what: string,
): Promise<RequisitionRecord[]> {
  const params: Record<string, string> = filter
    ? { filterfield: filter.field, filteroperator: filter.operator, filtervalue: filter.value }
    : {};
  return (
    await requestJson(vmsUrl('requisitions', orgs, params), requisitionListSchema, what, { signal })
  ).data;
}

/** Whether a record passes the API's filter, judged on the local copy as the VMS would. */
export function matchesFilter(record: RequisitionRecord, filter: RequisitionFilter): boolean {
  if (filter.field === 'Req_Id')
    return meetsCondition(Number(record.reqId), filter.operator, Number(filter.value));
  const actual = filter.field === 'Req_Created_Date_Time' ? record.createdAt : record.updatedAt;
  if (actual === '') return false;
  return dateFilterConditions(filter.operator, filter.value).every((condition) =>
    meetsCondition(actual, condition.operator, condition.value),
  );
}

/** After this long the whole list is loaded again, so the copy cannot drift for long. */
export const fullReconcileMs = 30 * 60_000;

const byReqId = (a: RequisitionRecord, b: RequisitionRecord) => Number(a.reqId) - Number(b.reqId);
const newestOf = (records: readonly RequisitionRecord[], since = '') =>
  records.reduce(
    (newest, record) => (record.updatedAt > newest ? record.updatedAt : newest),
    since,
  );
const scopeKey = (orgs: OrgScope) => `${orgs.vendorOrgId}:${orgs.clientOrgId}`;

/** The list as last loaded in this page, so a refresh starts from it without reading IndexedDB. */
const inMemory = new Map<
  string,
  { source: string; fullAt: number; records: RequisitionRecord[] }
>();

/** Forgets the browser's copies of the requisition lists (Settings, "Clear local data"). */
export async function forgetRequisitionLists(): Promise<void> {
  inMemory.clear();
  await clearRequisitionCopies();
}

/**
 * The client's requisitions, kept in the browser (requisition-cache.ts) and refreshed
 * incrementally: the first load takes the whole list; later ones ask the VMS only for requisitions
 * updated at or after the newest one seen (`Req_Updated_Date_Time >=`), and merge them. Every
 * `fullReconcileMs` (or with `full`), the whole list is loaded again and replaces the copy.
 * Unchanged records keep their identity, so rows that did not change do not re-render.
 * `source` names the VMS the list comes from.
 */
export async function loadRequisitionList(
  orgs: OrgScope,
  source: string,
  signal: AbortSignal,
  { full = false, now = Date.now() }: { full?: boolean; now?: number } = {},
): Promise<RequisitionRecord[]> {
  const scope = scopeKey(orgs);
  const what = 'Loading the requisitions';
  let base = inMemory.get(scope) ?? null;
  if (!base) {
    const stored = await readRequisitionCopy(scope);
    if (stored) base = { ...stored.state, records: stored.records.sort(byReqId) };
  }
  const newest = base ? newestOf(base.records) : '';
  const incremental =
    !full &&
    base !== null &&
    base.source === source &&
    newest !== '' &&
    now - base.fullAt < fullReconcileMs;

  if (base && incremental) {
    const changed = await fetchRequisitions(
      orgs,
      { field: 'Req_Updated_Date_Time', operator: '>=', value: newest },
      signal,
      what,
    );
    const known = new Map(base.records.map((record) => [record.reqId, record]));
    const updated = changed.filter((record) => {
      const before = known.get(record.reqId);
      return (
        !before ||
        before.updatedAt !== record.updatedAt ||
        JSON.stringify(before) !== JSON.stringify(record)
      );
    });
    let records = base.records;
    if (updated.length > 0) {
      for (const record of updated) known.set(record.reqId, record);
      records = [...known.values()].sort(byReqId);
      void writeRequisitionCopy(
        scope,
        { source, fullAt: base.fullAt, newest: newestOf(updated, newest) },
        updated,
        { replace: false },
      ).catch(() => undefined); // a copy that could not be saved is loaded again next time
    }
    inMemory.set(scope, { source, fullAt: base.fullAt, records });
    return records;
  }

  const records = (await fetchRequisitions(orgs, null, signal, what)).sort(byReqId);
  inMemory.set(scope, { source, fullAt: now, records });
  void writeRequisitionCopy(scope, { source, fullAt: now, newest: newestOf(records) }, records, {
    replace: true,
  }).catch(() => undefined);
  return records;
}

/**
 * The client's requisitions (all of them: filters, search and sorting run on this local copy).
 * Not structurally shared: the merge above already keeps unchanged records' identity, and
 * comparing 10,000 records field by field on every refresh would cost more than it saves.
 */
export function requisitionListQueryOptions(orgs: OrgScope, source: string) {
  return queryOptions({
    queryKey: ['requisitions', 'list', orgs, source],
    queryFn: ({ signal }) => loadRequisitionList(orgs, source, signal),
    staleTime: 15_000,
    structuralSharing: false,
  });
}

/** One requisition by Req ID (the API's Req_Id filter); null when the client has none such. */
export function requisitionQueryOptions(orgs: OrgScope, reqId: string) {
  return queryOptions({
    queryKey: ['requisitions', 'detail', orgs, reqId],
    queryFn: async ({ signal }) => {
      const records = await fetchRequisitions(
        orgs,
        { field: 'Req_Id', operator: '=', value: reqId },
        signal,
        `Loading requisition ${reqId}`,
      );
      return records.find((record) => record.reqId === reqId) ?? null;
    },
  });
}
