import { queryOptions } from '@tanstack/react-query';
import type { RequisitionRecord } from '@/domain';
import type { FullReadEvery } from '@/domain/list-refresh';
import { dateFilterConditions, meetsCondition } from '@/domain/vms-contract';
import type { OrgScope } from '@/shared/api/vms';
import type { RequisitionFilter } from './fetch';
import { fetchRequisitions } from './fetch';
import { byReqId } from './sync';
import type { FirstRecords } from './sync-client';
import { forgetSyncedLists, runSync } from './sync-client';

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

/** The list this page shows, per scope: what a refresh's changes are merged into. */
const shown = new Map<string, { source: string; records: RequisitionRecord[] }>();
const scopeOf = (orgs: OrgScope) => `${orgs.vendorOrgId}:${orgs.clientOrgId}`;
/** The loads under way, by list (preloadKey). */
const loading = new Map<string, number>();

/**
 * The first records of each list whose first load is under way, by list (preloadKey), for a
 * page with no list yet to draw its first rows from while the rest are taken in
 * (useFirstRequisitions). Dropped, without a word to the page, when the load ends: by then its
 * whole list is the query's.
 */
const firstRecords = new Map<string, FirstRecords>();
const firstListeners = new Set<() => void>();

/** Calls `listener` whenever a list's first records come. */
export function subscribeFirstRequisitions(listener: () => void): () => void {
  firstListeners.add(listener);
  return () => firstListeners.delete(listener);
}

/** The first records of this list while its first load is under way, else null. */
export function firstRequisitionsOf(orgs: OrgScope, source: string): FirstRecords | null {
  return firstRecords.get(preloadKey(orgs, source)) ?? null;
}

/**
 * Why a list's refresh cannot be trusted (SyncResult.warning), by list (preloadKey), for the
 * list page to say so above the list for as long as it holds.
 */
const warnings = new Map<string, string>();
const warningListeners = new Set<() => void>();

/** Calls `listener` whenever a list's warning comes or goes. */
export function subscribeRequisitionListWarnings(listener: () => void): () => void {
  warningListeners.add(listener);
  return () => warningListeners.delete(listener);
}

/** Why this list is read whole on every refresh, or null while its refreshes hold. */
export function requisitionListWarningOf(orgs: OrgScope, source: string): string | null {
  return warnings.get(preloadKey(orgs, source)) ?? null;
}

function setWarning(key: string, warning: string | null): void {
  if ((warnings.get(key) ?? null) === warning) return;
  if (warning === null) warnings.delete(key);
  else warnings.set(key, warning);
  for (const listener of warningListeners) listener();
}

/** Forgets the browser's copies of the requisition lists (Settings, "Clear local data"). */
export async function forgetRequisitionLists(): Promise<void> {
  shown.clear();
  warnings.clear();
  preloaded.clear();
  firstRecords.clear();
  await forgetSyncedLists();
}

/**
 * The client's requisitions, from the browser's copy refreshed incrementally (sync.ts).
 * The sync runs in a Web Worker where there is one, so fetching, parsing, checking and storing
 * thousands of records never holds up the page; the records arrive in small chunks. Changes are
 * merged into the list shown, so unchanged records keep their identity and their rows do not
 * re-render.
 */
export async function loadRequisitionList(
  orgs: OrgScope,
  source: string,
  onStored?: (records: RequisitionRecord[]) => void,
  fullReadEvery?: FullReadEvery,
): Promise<RequisitionRecord[]> {
  const scope = scopeOf(orgs);
  const key = preloadKey(orgs, source);
  loading.set(key, (loading.get(key) ?? 0) + 1);
  firstRecords.delete(key);
  let current = shown.get(scope);
  let has = current?.source === source;
  const result = await runSync(
    { orgs, source, mainHas: has, ...(fullReadEvery ? { fullReadEvery } : {}) },
    {
      onStored: (stored) => {
        // The stored copy, shown while the VMS is asked what changed since.
        current = { source, records: stored };
        has = true;
        shown.set(scope, current);
        onStored?.(stored);
      },
      onFirst: (first) => {
        firstRecords.set(key, first);
        for (const listener of firstListeners) listener();
      },
    },
  ).finally(() => {
    firstRecords.delete(key);
    const left = (loading.get(key) ?? 1) - 1;
    if (left > 0) loading.set(key, left);
    else loading.delete(key);
  });
  setWarning(key, result.warning);
  let records: RequisitionRecord[];
  if (result.replace || !current || !has) {
    records = result.records;
  } else if (result.records.length === 0) {
    records = current.records;
  } else {
    const byId = new Map(current.records.map((record) => [record.reqId, record]));
    for (const record of result.records) byId.set(record.reqId, record);
    records = [...byId.values()].sort(byReqId);
  }
  shown.set(scope, { source, records });
  return records;
}

/**
 * The client's requisitions (all of them: filters, search and sorting run on this local copy).
 * Not structurally shared: the merge above already keeps unchanged records' identity, and
 * comparing 10,000 records field by field on every refresh would cost more than it saves.
 */
/**
 * The requisition queries' keys. Every one starts with `all`: a processed batch that changes
 * requisitions refreshes them all by it.
 */
export const requisitionKeys = {
  all: ['requisitions'] as const,
  list: (orgs: OrgScope, source: string) => ['requisitions', 'list', orgs, source] as const,
  detail: (orgs: OrgScope, reqId: string) => ['requisitions', 'detail', orgs, reqId] as const,
};

/** A list's first load, started before the page renders, for the list query to take. */
interface Preloaded {
  result: Promise<RequisitionRecord[]>;
  /** The whole list, once it has come. */
  records: RequisitionRecord[] | null;
  /** When it came (Date.now()): the list query's data is as old as that. */
  cameAt: number;
  /** The stored copy, shown while the VMS is asked what changed, until the query takes it. */
  stored: RequisitionRecord[] | null;
  onStored: ((records: RequisitionRecord[]) => void) | null;
}
const preloaded = new Map<string, Preloaded>();
const preloadKey = (orgs: OrgScope, source: string) =>
  JSON.stringify([orgs.vendorOrgId, orgs.clientOrgId, source]);

/**
 * Starts the list's first load now, as the list page's code arrives, rather than when its first
 * render asks (requisitions-route.tsx): the records the worker sends are then taken in while the
 * page hydrates, and a list that has come by the page's first render is drawn in it
 * (requisitionListQueryOptions' initialData). The list query takes it, once. Not when the page
 * has a list already (another page loaded it, for its suggestions): a later refresh would take a
 * load older than itself.
 */
export function preloadRequisitionList(
  orgs: OrgScope,
  source: string,
  fullReadEvery?: FullReadEvery,
): void {
  const key = preloadKey(orgs, source);
  // Only a page that has no list yet, nor one coming: those are the list query's to refresh.
  if (preloaded.has(key) || loading.has(key) || shown.get(scopeOf(orgs))?.source === source) {
    return;
  }
  const entry: Preloaded = {
    result: loadRequisitionList(
      orgs,
      source,
      (stored) => {
        entry.stored = stored;
        entry.onStored?.(stored);
      },
      fullReadEvery,
    ),
    records: null,
    cameAt: 0,
    stored: null,
    onStored: null,
  };
  entry.result.then(
    (records) => {
      entry.records = records;
      entry.cameAt = Date.now();
    },
    // The query that takes it reports the failure.
    () => undefined,
  );
  preloaded.set(key, entry);
}

/**
 * The preloaded load of a list, taken (once), while it is under way or has come within the
 * list's stale time; an older one is dropped, and the query asks afresh. The page's first render
 * takes it; one that never did (its org changed first) must not pass off a list from when the
 * page was opened as new minutes later.
 */
function takePreloaded(orgs: OrgScope, source: string): Preloaded | undefined {
  const key = preloadKey(orgs, source);
  const entry = preloaded.get(key);
  preloaded.delete(key);
  if (entry?.records && Date.now() - entry.cameAt > listStaleMs) return undefined;
  return entry;
}

/** How long a list read from the VMS is shown without asking it again. */
const listStaleMs = 15_000;

/** `fullReadEvery`: the connection's (its settings'), when its profile says. */
export function requisitionListQueryOptions(
  orgs: OrgScope,
  source: string,
  fullReadEvery?: FullReadEvery,
) {
  /** The preloaded list the query starts with, if it had come (React Query asks once). */
  let initial: Preloaded | undefined;
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- fullReadEvery says how often the copy is read whole, not which list it is: the same list either way.
  return queryOptions({
    queryKey: requisitionKeys.list(orgs, source),
    // A preloaded list that has come already: drawn at once, and taken, as old as it is.
    initialData: () => {
      if (!preloaded.get(preloadKey(orgs, source))?.records) return undefined;
      initial = takePreloaded(orgs, source);
      return initial?.records ?? undefined;
    },
    initialDataUpdatedAt: () => initial?.cameAt,
    queryFn: ({ client, queryKey }) => {
      const started = takePreloaded(orgs, source);
      if (!started) {
        return loadRequisitionList(
          orgs,
          source,
          (records) => client.setQueryData(queryKey, records),
          fullReadEvery,
        );
      }
      if (started.stored) client.setQueryData(queryKey, started.stored);
      started.onStored = (records) => client.setQueryData(queryKey, records);
      return started.result;
    },
    staleTime: listStaleMs,
    structuralSharing: false,
  });
}

/** One requisition by Req ID (the API's Req_Id filter); null when the client has none such. */
export function requisitionQueryOptions(orgs: OrgScope, reqId: string) {
  return queryOptions({
    queryKey: requisitionKeys.detail(orgs, reqId),
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
