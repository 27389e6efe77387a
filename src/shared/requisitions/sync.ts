import type { RequisitionRecord } from '@/domain';
import { readOwnDateTime } from '@/domain/date-patterns';
import { defaultFullReadEvery, type FullReadEvery } from '@/domain/list-refresh';
import type { StartedRequest } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { workScope } from '@/shared/config/current-connection';
import { clearRequisitionCopies, readRequisitionCopy, writeRequisitionCopy } from './cache';
import { fetchRequisitionList } from './fetch';

/**
 * The sync of a client's requisition list with the browser's copy, run in a Web Worker
 * (sync.worker.ts) or, without one, in the page. The first load takes the whole list;
 * later ones ask the VMS only for requisitions updated at or after the newest one the copy holds
 * (`Req_Updated_Date_Time >=`, the API's own filter), and store what changed. Every so many
 * refreshes or minutes (`fullReadEvery`) the whole list is loaded again and replaces the copy, so
 * it cannot drift.
 */
export interface SyncRequest {
  orgs: OrgScope;
  /** Which VMS the list comes from: a copy from another one is not used. */
  source: string;
  /** Whether the page already shows this list: then only changed records are sent back. */
  mainHas: boolean;
  /** How often the list is read whole (the connection's profile's); by default defaultFullReadEvery. */
  fullReadEvery?: FullReadEvery;
}

export interface SyncResult {
  /** true: `records` is the whole list (sorted by Req ID); false: the records that changed. */
  replace: boolean;
  records: RequisitionRecord[];
  /**
   * Why the list's refresh cannot be trusted and it is read whole instead, for the page to say
   * where the list is; null while refreshes hold.
   */
  warning: string | null;
}

/** Requisitions in Req ID order (numbers, not text: 9 before 10). */
export const byReqId = (a: RequisitionRecord, b: RequisitionRecord) =>
  Number(a.reqId) - Number(b.reqId);
/**
 * The latest last-updated time of `records`, which the next refresh asks the VMS for changes
 * since. Only times the portal read count: one the profile could not read came as the VMS wrote it
 * (`31/12/2026 10:00`), sorts after every ISO time, and would be sent back as the filter.
 */
export const newestOf = (records: Iterable<RequisitionRecord>, since = '') => {
  let newest = since;
  for (const record of records) {
    if (record.updatedAt > newest && readOwnDateTime(record.updatedAt) !== null) {
      newest = record.updatedAt;
    }
  }
  return newest;
};

/** Whether `record` is new to the copy, or differs from what the copy holds for it. */
const changedFrom = (held: RequisitionRecord | undefined, record: RequisitionRecord) =>
  !held || JSON.stringify(held) !== JSON.stringify(record);

/** A record's last-updated time when the portal read it; null when absent or unreadable. */
const readTime = (record: RequisitionRecord) =>
  record.updatedAt === '' ? null : readOwnDateTime(record.updatedAt);

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

const checkAdvice =
  "This list is now read whole on every refresh, so nothing is missed. An administrator should run the connection check (Connections): the list filter (list.filter) or date-times (dates.dateTimes) of the connection's profile do not fit this VMS.";

/**
 * What a refresh's answer says about the VMS's filter: asked for the requisitions updated at or
 * after `since`, an answer holding ones updated before it shows the filter was not applied (its
 * parameter names, or the way its date is written, are not the VMS's). A refresh built on such
 * a filter would take the VMS's word for "nothing changed" where it never looked.
 */
export function refreshFilterProblem(
  since: string,
  changed: readonly RequisitionRecord[],
): string | null {
  const before = changed.filter((record) => readTime(record) !== null && record.updatedAt < since);
  if (before.length === 0) return null;
  return `Asked for the requisitions updated since ${since}, the VMS answered ${plural(before.length, 'requisition', 'requisitions')} updated before then: it did not apply the list's filter. ${checkAdvice}`;
}

/**
 * What a whole list read says about the refreshes before it: a requisition the copy lacks, or
 * holds otherwise, though it was last updated before the newest change the refreshes had seen,
 * is one they missed (a refresh asks only for what was updated since that newest change).
 */
export function missedByRefreshes(
  copy: ReadonlyMap<string, RequisitionRecord>,
  since: string,
  whole: readonly RequisitionRecord[],
): string | null {
  let missed = 0;
  for (const record of whole) {
    if (readTime(record) === null || record.updatedAt >= since) continue;
    const held = copy.get(record.reqId);
    if (changedFrom(held, record)) missed += 1;
  }
  if (missed === 0) return null;
  return `A full read found ${plural(missed, 'requisition', 'requisitions')} that the refreshes since the last one had missed. ${checkAdvice}`;
}

const totalAdvice =
  "An administrator should run the connection check (Connections): the list's total (list.total) or its paging (list.paging) in the connection's profile do not fit this VMS.";

/**
 * What the VMS's count of the client's requisitions (`list.total`) says about the list held
 * after a refresh or a whole read: a count that differs shows records missed or removed. Null when
 * they agree, or when the VMS gives no count.
 */
export function totalProblem(
  held: number,
  total: number | null,
  after: 'refresh' | 'full read',
): string | null {
  if (total === null || total === held) return null;
  const counts = `the VMS counts ${plural(total, 'requisition', 'requisitions')} (list.total)`;
  return after === 'refresh'
    ? `After a refresh this list held ${plural(held, 'requisition', 'requisitions')}, but ${counts}: a requisition was removed at the VMS (a refresh cannot see that) or the refresh missed one, so the list was read whole now.`
    : `A full read of this list answered ${plural(held, 'requisition', 'requisitions')}, but ${counts}: the list cannot be read in full. This list is now read whole on every refresh. ${totalAdvice}`;
}

/** The copy as last synced here, so a refresh starts from it without reading IndexedDB. */
interface Copy {
  source: string;
  fullAt: number;
  newest: string;
  byId: Map<string, RequisitionRecord>;
  /** Refreshes since the last whole read. */
  refreshes: number;
  /** Why every refresh reads the whole list (RequisitionCopyState.fullOnly), or null. */
  fullOnly: string | null;
}
const copies = new Map<string, Copy>();

/** Forgets the copies held here (the worker's, on Settings' "Clear local data"). */
export function dropCopiesInMemory(): void {
  copies.clear();
}

/** Forgets the copies held here and removes the stored ones. */
export async function forgetCopies(): Promise<void> {
  dropCopiesInMemory();
  await clearRequisitionCopies();
}

/** The next task: by then the records returned have been handed on. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * `onStored` receives the stored copy (sorted) as soon as it is read, when the page has no list
 * yet, so the page can show it while the VMS is asked what changed; the result is then only the
 * changes. A whole list loaded afresh is stored once `handedOn` has settled (by default, a task
 * after it is returned): storing thousands of records copies every one of them, on the thread
 * that must also send them to the page, and the page's first rows need not wait for that.
 */
export async function syncRequisitions(
  { orgs, source, mainHas: pageHas, fullReadEvery }: SyncRequest,
  {
    now = Date.now(),
    onStored,
    handedOn = nextTask,
    started,
  }: {
    now?: number;
    onStored?: (records: RequisitionRecord[]) => void;
    handedOn?: () => Promise<unknown>;
    /** The whole list, asked for already: taken by a whole load, cancelled by a refresh. */
    started?: StartedRequest;
  } = {},
): Promise<SyncResult> {
  let mainHas = pageHas;
  const scope = `${orgs.vendorOrgId}:${workScope(orgs.clientOrgId)}`;
  const what = 'Loading the requisitions';
  let base = copies.get(scope) ?? null;
  let fromStorage = false;
  if (!base) {
    const stored = await readRequisitionCopy(scope);
    if (stored) {
      base = {
        source: stored.state.source,
        fullAt: stored.state.fullAt,
        fullOnly: stored.state.fullOnly ?? null,
        refreshes: 0,
        // Read from the records themselves: they and this figure can never disagree.
        newest: newestOf(stored.records),
        byId: new Map(stored.records.map((record) => [record.reqId, record])),
      };
      fromStorage = true;
    }
  }
  const sameSource = base !== null && base.source === source;
  let fullOnly = sameSource ? (base?.fullOnly ?? null) : null;

  const every = fullReadEvery ?? defaultFullReadEvery;
  /** Why this refresh reads whole though the refreshes hold (list.total), for this once. */
  let readWholeBecause: string | null = null;
  if (
    base &&
    sameSource &&
    fullOnly === null &&
    base.newest !== '' &&
    now - base.fullAt < every.minutes * 60_000 &&
    base.refreshes + 1 < every.refreshes
  ) {
    started?.abort();
    if (fromStorage && !mainHas && onStored) {
      onStored([...base.byId.values()].sort(byReqId));
      mainHas = true;
      fromStorage = false;
    }
    const answer = await fetchRequisitionList(
      orgs,
      { field: 'Req_Updated_Date_Time', operator: '>=', value: base.newest },
      new AbortController().signal,
      what,
    );
    fullOnly = refreshFilterProblem(base.newest, answer.records);
    const updated =
      fullOnly === null
        ? answer.records.filter((record) => changedFrom(base.byId.get(record.reqId), record))
        : [];
    for (const record of updated) base.byId.set(record.reqId, record);
    if (fullOnly === null) readWholeBecause = totalProblem(base.byId.size, answer.total, 'refresh');
    if (fullOnly === null && readWholeBecause === null) {
      const newest = newestOf(updated, base.newest);
      if (updated.length > 0) {
        // Stored before the page is told: a reload right after the changes show finds them in
        // the copy (a few records: a short write). A copy that could not be saved is simply
        // loaded again next time.
        await writeRequisitionCopy(scope, { source, fullAt: base.fullAt }, updated, {
          replace: false,
        }).catch(() => undefined);
      }
      copies.set(scope, { ...base, newest, refreshes: base.refreshes + 1 });
      if (mainHas && !fromStorage) return { replace: false, records: updated, warning: null };
      return { replace: true, records: [...base.byId.values()].sort(byReqId), warning: null };
    }
    // The filter was not applied, or the copy does not hold what the VMS counts: the whole
    // list, read below, replaces the copy.
    started = undefined;
  }

  const whole = await fetchRequisitionList(orgs, null, new AbortController().signal, what, started);
  const records = whole.records.sort(byReqId);
  if (fullOnly === null && base && sameSource && base.newest !== '') {
    fullOnly = missedByRefreshes(base.byId, base.newest, records);
  }
  fullOnly ??= totalProblem(records.length, whole.total, 'full read');
  const newest = newestOf(records);
  copies.set(scope, {
    source,
    fullAt: now,
    newest,
    byId: new Map(records.map((record) => [record.reqId, record])),
    refreshes: 0,
    fullOnly,
  });
  // Stored once the records are on their way to the page (above). A copy that could not be
  // saved is simply loaded again next time.
  void handedOn()
    .catch(() => undefined)
    .then(() =>
      writeRequisitionCopy(scope, { source, fullAt: now, fullOnly }, records, { replace: true }),
    )
    .catch(() => undefined);
  return { replace: true, records, warning: fullOnly ?? readWholeBecause };
}
