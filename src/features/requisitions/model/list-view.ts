import type { DateFormat, RequisitionRecord } from '@/domain';
import { optionLabel, recordNotSubmittable, reqStatuses } from '@/domain';
import { readOwnDateTime } from '@/domain/date-patterns';
import type { RequisitionFilter } from '@/shared/requisitions';
import { byReqId, matchesFilter } from '@/shared/requisitions';

/**
 * What the requisition list shows of the local copy: the API's filter, the title search, the
 * status chips, "Only submittable" and the sort, all in the address
 * (?field=…&op=…&value=…&q=…&status=4,5&submittable=1&sort=…&dir=…) so reload and links keep them.
 */
export interface ListView {
  filter: RequisitionFilter | null;
  search: string;
  sort: Sort;
  /** reqstatus codes to show; none chosen shows every status. */
  statuses: readonly string[];
  onlySubmittable: boolean;
}

/** The status chips chosen in the address (`status=4,5`); unknown codes are ignored. */
export function readStatuses(params: URLSearchParams): string[] {
  const chosen = new Set((params.get('status') ?? '').split(','));
  return reqStatuses.filter((option) => chosen.has(option.value)).map((option) => option.value);
}

/** The address value for a set of status chips (null for none). */
export function statusParam(statuses: readonly string[]): string | null {
  return statuses.length === 0 ? null : statuses.join(',');
}

/** A chip pressed: its status is added, or removed when it was chosen. */
export function toggleStatus(statuses: readonly string[], status: string): string[] {
  const next = statuses.includes(status)
    ? statuses.filter((value) => value !== status)
    : [...statuses, status];
  return reqStatuses.map((option) => option.value).filter((value) => next.includes(value));
}

/** How many requisitions of the copy have each status (chips show it). */
export function statusCounts(records: readonly RequisitionRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records)
    counts.set(record.fields.reqstatus, (counts.get(record.fields.reqstatus) ?? 0) + 1);
  return counts;
}
/**
 * A record's created or updated time the connection's profile could not read: it reached the
 * browser as the VMS wrote it, not as the portal's own ISO 8601 (`''`, no time at all, is not).
 * The table marks each such time and the list counts the records that have one, by this one test.
 */
export function dateTimeUnreadable(value: string): boolean {
  return value !== '' && readOwnDateTime(value) === null;
}

/** How many records have a created or updated time the profile could not read (the list says so). */
export function unreadableDateCount(records: readonly RequisitionRecord[]): number {
  let count = 0;
  for (const record of records)
    if (dateTimeUnreadable(record.createdAt) || dateTimeUnreadable(record.updatedAt)) count += 1;
  return count;
}

export function statusText(record: RequisitionRecord): string {
  const value = record.fields.reqstatus;
  return optionLabel(reqStatuses, value) ?? (value === '' ? '–' : `Status ${value}`);
}

const byNumber =
  (read: (record: RequisitionRecord) => string) => (a: RequisitionRecord, b: RequisitionRecord) =>
    (Number(read(a)) || 0) - (Number(read(b)) || 0);
const byText =
  (read: (record: RequisitionRecord) => string) => (a: RequisitionRecord, b: RequisitionRecord) =>
    read(a).localeCompare(read(b), undefined, { sensitivity: 'base', numeric: true });

/** The sortable columns, in table order, with how each compares. */
export const sortColumns = [
  { key: 'reqId', label: 'Req ID', compare: byReqId },
  {
    key: 'reference',
    label: 'Client internal req',
    compare: byText((r) => r.fields.clientinternalreq),
  },
  { key: 'title', label: 'Title', compare: byText((r) => r.fields.titlerole) },
  { key: 'status', label: 'Status', compare: byText(statusText) },
  { key: 'openings', label: 'Openings', compare: byNumber((r) => r.fields.noofopenings) },
  { key: 'start', label: 'Start date', compare: byText((r) => r.fields.startdate) },
  { key: 'updated', label: 'Last updated', compare: byText((r) => r.updatedAt) },
] as const;
export type SortKey = (typeof sortColumns)[number]['key'];
export interface Sort {
  key: SortKey;
  direction: 'ascending' | 'descending';
}
export const defaultSort: Sort = { key: 'reqId', direction: 'ascending' };

/** Whether the rows are in the list's own order (Req ID, ascending), the order it comes in. */
export const inListOrder = (sort: Sort) =>
  sort.key === defaultSort.key && sort.direction === defaultSort.direction;

export function readSort(params: URLSearchParams): Sort {
  const key = sortColumns.find((column) => column.key === params.get('sort'))?.key;
  if (!key) return defaultSort;
  return { key, direction: params.get('dir') === 'desc' ? 'descending' : 'ascending' };
}

/** The address parameters for a sort (none for the default). */
export function sortParams(sort: Sort): { sort: string | null; dir: string | null } {
  if (inListOrder(sort)) return { sort: null, dir: null };
  return { sort: sort.key, dir: sort.direction === 'descending' ? 'desc' : null };
}

/** Clicking a column: sort by it ascending, or flip it when it is the sort already. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key !== key) return { key, direction: 'ascending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** The rows to show: filtered, searched by title, sorted (ties keep Req ID order). */
export function listRows(
  records: readonly RequisitionRecord[],
  { filter, search, sort, statuses, onlySubmittable }: ListView,
  { dateFormat, today }: { dateFormat: DateFormat; today: string },
): RequisitionRecord[] {
  const needle = search.trim().toLowerCase();
  const rows = records.filter(
    (record) =>
      (filter === null || matchesFilter(record, filter)) &&
      (needle === '' || record.fields.titlerole.toLowerCase().includes(needle)) &&
      (statuses.length === 0 || statuses.includes(record.fields.reqstatus)) &&
      (!onlySubmittable || recordNotSubmittable(record, dateFormat, today).length === 0),
  );
  const column = sortColumns.find((candidate) => candidate.key === sort.key) ?? sortColumns[0];
  if (inListOrder(sort)) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows.sort((a, b) => sign * column.compare(a, b) || byReqId(a, b));
}
