import { ownDateTime, readDateTime, readOwnDateTime, writeDateTime } from '@/domain/date-patterns';
import { convertWireDate } from '@/domain/dates';
import { payloadKindDescriptors, payloadKindOf, type PayloadKind } from '@/domain/payload-kind';
import { requisitionCatalog } from '@/domain/requisition-catalog';
import type { VmsOperation } from '@/domain/vms-contract';
import { readPointer, writePointer } from './json-pointer';
import type { VmsProfile } from './profile';

/**
 * Translating between the portal's own dialect of the VMS interface (the one its browser code,
 * its tests and the `sandbox` profile speak) and a connection's profile. The proxy uses the
 * `toVms…`/`fromVms…` half on every call to a VMS whose profile differs; the sandbox uses the
 * other half to answer in any profile. Request bodies are never translated: the payloads are
 * fully specified, and the VMS receives exactly the bytes the user sent.
 */

/** The portal's own names, as its browser code reads them. */
const own = {
  batchId: 'batchid',
  received: 'received',
  filter: { field: 'filterfield', operator: 'filteroperator', value: 'filtervalue' },
  list: { reqId: 'Req_Id', created: 'Req_Created_Date_Time', updated: 'Req_Updated_Date_Time' },
} as const;

/** The kind whose results `operation` reads; null for another operation. */
function resultKindOf(operation: VmsOperation): PayloadKind | null {
  return (
    Object.values(payloadKindDescriptors).find((kind) => kind.resultsOperation === operation)?.id ??
    null
  );
}

type Json = unknown;
type JsonObject = Record<string, Json>;

function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

function asText(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

// ── Requisition records ──────────────────────────────────────────────────────────────────────

/** Each payload field of a record: its PascalCase name, its payload name, and whether it is a DATE. */
const recordFields = requisitionCatalog
  .filter((def) => def.key !== 'requesttype')
  .map((def) => ({
    own: def.responseName ?? def.key,
    payload: def.key as string,
    date: def.type === 'DATE',
  }));

function recordName(profile: VmsProfile, field: (typeof recordFields)[number]): string {
  return profile.list.fieldNames === 'PascalCase' ? field.own : field.payload;
}

/** How a profile writes its date-times: the pattern, and the zone of a pattern's wall clock. */
type DateTimeSetting = Pick<VmsProfile['dates'], 'dateTimes' | 'timeZone'>;

/**
 * A VMS date-time → the portal's `YYYY-MM-DDTHH:MM:SSZ`. A value that does not read is passed as
 * it is: never turned into another instant.
 */
export function dateTimeToOwn(value: string, dates: DateTimeSetting): string {
  if (value === '') return value;
  const utcMs = readDateTime(value, dates.dateTimes, dates.timeZone);
  return typeof utcMs === 'number' ? ownDateTime(utcMs) : value;
}

/**
 * The portal's date-time (or a date, for a filter: its midnight in the VMS's zone) → the VMS's
 * way of writing it. A value the portal did not write passes unchanged.
 */
export function dateTimeToVms(value: string, dates: DateTimeSetting): string {
  if (value === '') return value;
  const isDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  // An ISO date is ISO 8601 already, and a VMS that writes ISO 8601 reads it as it is.
  if (isDate && dates.dateTimes === 'iso-8601') return value;
  const utcMs = isDate
    ? readDateTime(`${value}T00:00:00`, 'YYYY-MM-DD[T]HH:mm:ss', dates.timeZone)
    : readDateTime(value, 'iso-8601', 'UTC');
  return typeof utcMs === 'number' ? writeDateTime(utcMs, dates.dateTimes, dates.timeZone) : value;
}

function recordToOwn(profile: VmsProfile, record: JsonObject): JsonObject {
  const { fields } = profile.list;
  const result: JsonObject = {
    [own.list.reqId]: asText(record[fields.reqId]),
    [own.list.created]: dateTimeToOwn(asText(record[fields.created]), profile.dates),
    [own.list.updated]: dateTimeToOwn(asText(record[fields.updated]), profile.dates),
  };
  for (const field of recordFields) {
    const value = record[recordName(profile, field)];
    if (value === undefined || value === null) continue;
    const text = asText(value);
    result[field.own] = field.date
      ? convertWireDate(text, profile.dates.records, profile.dates.outbound)
      : text;
  }
  return result;
}

function recordToVms(profile: VmsProfile, record: JsonObject): JsonObject {
  const { fields } = profile.list;
  const result: JsonObject = {
    [fields.reqId]: asText(record[own.list.reqId]),
    [fields.created]: dateTimeToVms(asText(record[own.list.created]), profile.dates),
    [fields.updated]: dateTimeToVms(asText(record[own.list.updated]), profile.dates),
  };
  for (const field of recordFields) {
    const value = record[field.own];
    if (value === undefined) continue;
    const text = asText(value);
    result[recordName(profile, field)] = field.date
      ? convertWireDate(text, profile.dates.outbound, profile.dates.records)
      : text;
  }
  return result;
}

// ── Result rows ──────────────────────────────────────────────────────────────────────────────

/** A kind's own results row fields (its payload's descriptor's). */
function ownRowNames(kind: PayloadKind) {
  return payloadKindOf(kind).resultFields;
}

function rowToOwn(
  profile: VmsProfile,
  kind: PayloadKind,
  row: JsonObject,
  index: number,
  batchId: string,
) {
  const shape = profile.results[kind];
  const names = ownRowNames(kind);
  const word = asText(row[shape.status]);
  const status = shape.statuses[word] ?? word;
  const position = shape.rowNumber === null ? index + 1 : Number(asText(row[shape.rowNumber]));
  const result: JsonObject = {
    [names.batch]: batchId,
    [names.row]: Number.isSafeInteger(position) && position > 0 ? position : index + 1,
    [names.status]: status,
    [names.message]: asText(row[shape.message]),
    [names.createdId]: asText(row[shape.createdId]),
    [names.reference]: asText(row[shape.reference]),
  };
  // The portal's candidate rows carry the status under both names, as its sandbox always has.
  if (names.statusAlso !== null) result[names.statusAlso] = status;
  return result;
}

function rowToVms(profile: VmsProfile, kind: PayloadKind, row: JsonObject): JsonObject {
  const shape = profile.results[kind];
  const names = ownRowNames(kind);
  const ownStatus = asText(row[names.status]);
  const word = Object.entries(shape.statuses).find(([, mapped]) => mapped === ownStatus)?.[0];
  const result: JsonObject = {};
  if (shape.rowNumber !== null) result[shape.rowNumber] = row[names.row];
  result[shape.status] = word ?? ownStatus;
  result[shape.message] = asText(row[names.message]);
  result[shape.createdId] = asText(row[names.createdId]);
  result[shape.reference] = asText(row[names.reference]);
  return result;
}

// ── The proxy's side: the portal's call → the VMS's, the VMS's answer → the portal's ─────────

/**
 * Whether a profile speaks the portal's own dialect, so its calls and answers pass untouched.
 * How calls are signed is not part of it: every call is signed by its profile's recipe anyway.
 */
export function speaksOwnDialect(profile: VmsProfile, ownProfile: VmsProfile): boolean {
  const { signature: _mine, ...mine } = profile;
  const { signature: _own, ...own } = ownProfile;
  return JSON.stringify(mine) === JSON.stringify(own);
}

function splitQuery(query: string): URLSearchParams {
  return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
}

/**
 * The path and query the VMS is called at (relative to the base URL), for a call the portal
 * makes as `operation` + `query` (its own query string, org ids checked already).
 */
export function vmsCallPath(profile: VmsProfile, operation: VmsOperation, query: string): string {
  const params = splitQuery(query);
  let template: string = profile.paths[operation];
  if (resultKindOf(operation)) {
    const batchId = params.get(own.batchId) ?? '';
    params.delete(own.batchId);
    template = template.replaceAll('{batchid}', encodeURIComponent(batchId));
  }
  if (operation === 'requisitions') {
    const renamed = new URLSearchParams();
    const field = params.get(own.filter.field);
    const names = profile.list.fields;
    for (const [name, value] of params) {
      if (name === own.filter.field) {
        const key = Object.entries(own.list).find(([, ownName]) => ownName === value)?.[0];
        renamed.append(profile.list.filter.field, key ? names[key as keyof typeof names] : value);
      } else if (name === own.filter.operator) {
        renamed.append(profile.list.filter.operator, value);
      } else if (name === own.filter.value) {
        const isDateTime = field === own.list.created || field === own.list.updated;
        renamed.append(
          profile.list.filter.value,
          isDateTime ? dateTimeToVms(value, profile.dates) : value,
        );
      } else {
        renamed.append(name, value);
      }
    }
    return joinQuery(template, renamed);
  }
  return joinQuery(template, params);
}

/** `path` with more query parameters (a signature's timestamp, a page). */
export function joinQuery(template: string, params: URLSearchParams): string {
  const rest = params.toString();
  if (rest === '') return template;
  return `${template}${template.includes('?') ? '&' : '?'}${rest}`;
}

/** The query parameters that ask for page `index` (0-based) of the list; none without paging. */
export function pageParameters(profile: VmsProfile, index: number): Record<string, string> {
  const paging = profile.list.paging;
  switch (paging.style) {
    case 'none':
      return {};
    case 'page':
      return {
        [paging.page]: String(paging.firstPage + index),
        [paging.size]: String(paging.pageSize),
      };
    case 'offset':
      return {
        [paging.offset]: String(index * paging.pageSize),
        [paging.limit]: String(paging.pageSize),
      };
  }
}

/** `path` asking for page `index`. */
export function withPage(profile: VmsProfile, path: string, index: number): string {
  return joinQuery(path, new URLSearchParams(pageParameters(profile, index)));
}

/** How many records make a full page: a shorter page is the last. Null without paging. */
export function pageSize(profile: VmsProfile): number | null {
  return profile.list.paging.style === 'none' ? null : profile.list.paging.pageSize;
}

/** What the portal could not read in a VMS's answer: said to the user, with the answer kept raw. */
export interface UnreadableAnswer {
  unreadable: string;
}

/** The records of one list answer, in the portal's names; or what made it unreadable. */
export function listRecordsFromVms(
  profile: VmsProfile,
  text: string,
): JsonObject[] | UnreadableAnswer {
  const records = readPointer(parse(text), profile.list.records);
  if (!Array.isArray(records)) {
    return {
      unreadable: `no array of records at "${profile.list.records}" (list.records)`,
    };
  }
  return records.filter(isObject).map((record) => recordToOwn(profile, record));
}

/**
 * A VMS's answer to `operation` in the portal's dialect, or what made it unreadable (the caller
 * then passes the answer on as it came). Lists are read by listRecordsFromVms, page by page.
 */
export function answerFromVms(
  profile: VmsProfile,
  operation: VmsOperation,
  status: number,
  text: string,
  context: { batchId?: string } = {},
): string | UnreadableAnswer {
  const body = parse(text);
  if (status < 200 || status >= 300) {
    const message = readPointer(body, profile.errors.message);
    if (typeof message !== 'string' || message === '') {
      return { unreadable: `no error message at "${profile.errors.message}" (errors.message)` };
    }
    return JSON.stringify({ error: { code: 'vms_error', message } });
  }
  if (operation === 'requisitionimport' || operation === 'candidates') {
    const batchId = asText(readPointer(body, profile.accepted.batchId));
    if (batchId === '') {
      return { unreadable: `no batch id at "${profile.accepted.batchId}" (accepted.batchId)` };
    }
    return JSON.stringify({ [own.batchId]: batchId });
  }
  const kind = resultKindOf(operation);
  if (kind) {
    const rows = readPointer(body, profile.results[kind].rows);
    if (!Array.isArray(rows)) {
      return {
        unreadable: `no array of rows at "${profile.results[kind].rows}" (results.${kind}.rows)`,
      };
    }
    return JSON.stringify(
      rows
        .filter(isObject)
        .map((row, index) => rowToOwn(profile, kind, row, index, context.batchId ?? '')),
    );
  }
  const records = listRecordsFromVms(profile, text);
  return Array.isArray(records) ? JSON.stringify(records) : records;
}

// ── The sandbox's side: a call in a profile's dialect → the portal's, and the answer back ────

/** A call a profile's client made, read in the portal's dialect. */
export interface OwnCall {
  operation: VmsOperation;
  /** The portal-dialect query string, `?…` or ''. */
  query: string;
  /** The list page asked for: the first record's 0-based position and the page's size; null for the whole list. */
  page: { offset: number; size: number } | null;
}

function templateMatcher(template: string): { path: RegExp; query: URLSearchParams } {
  const [path = '', query = ''] = template.split('?');
  const escaped = path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace('{batchid}', '(?<batchid>[^/]+)');
  return { path: new RegExp(`^${escaped}$`), query: new URLSearchParams(query) };
}

/** `url` (path and query, relative to the base) read as one of the operations, or null. */
export function ownCallFromVms(profile: VmsProfile, method: string, url: string): OwnCall | null {
  const [rawPath = '', rawQuery = ''] = url.split('?');
  const params = new URLSearchParams(rawQuery);
  for (const [operation, template] of Object.entries(profile.paths) as [VmsOperation, string][]) {
    const isPost = operation === 'requisitionimport' || operation === 'candidates';
    if ((method === 'POST') !== isPost) continue;
    const matcher = templateMatcher(template);
    const match = matcher.path.exec(rawPath);
    if (!match) continue;
    const own = new URLSearchParams();
    let batchId = match.groups?.batchid ? decodeURIComponent(match.groups.batchid) : null;
    let fits = true;
    for (const [name, value] of matcher.query) {
      if (value === '{batchid}') batchId = params.get(name);
      else if (params.get(name) !== value) fits = false;
    }
    if (!fits) continue;
    const templated = new Set(matcher.query.keys());
    const page = readPage(profile, params);
    const paging = new Set(
      operation === 'requisitions' ? Object.keys(pageParameters(profile, 0)) : [],
    );
    for (const [name, value] of params) {
      if (templated.has(name) || paging.has(name)) continue;
      const parameter = ownParameter(profile, operation, name, value, params);
      if (parameter !== null) own.append(...parameter);
    }
    if (batchId !== null && resultKindOf(operation)) own.append('batchid', batchId);
    const query = own.toString();
    return {
      operation,
      query: query === '' ? '' : `?${query}`,
      page: operation === 'requisitions' ? page : null,
    };
  }
  return null;
}

function ownParameter(
  profile: VmsProfile,
  operation: VmsOperation,
  name: string,
  value: string,
  params: URLSearchParams,
): [string, string] | null {
  if (operation !== 'requisitions') return [name, value];
  const filter = profile.list.filter;
  const fields = profile.list.fields;
  if (name === filter.field) {
    const key = Object.entries(fields).find(([, vmsName]) => vmsName === value)?.[0];
    return [own.filter.field, key ? own.list[key as keyof typeof own.list] : value];
  }
  if (name === filter.operator) return [own.filter.operator, value];
  if (name === filter.value) {
    const field = params.get(filter.field);
    const isDateTime = field === fields.created || field === fields.updated;
    return [own.filter.value, isDateTime ? dateTimeToOwn(value, profile.dates) : value];
  }
  // A VMS ignores a parameter it does not know: the portal's own filter names, sent to a VMS
  // that names its filter otherwise, filter nothing there (and must not here either).
  if ((Object.values(own.filter) as string[]).includes(name)) return null;
  return [name, value];
}

function readPage(profile: VmsProfile, params: URLSearchParams): OwnCall['page'] {
  const paging = profile.list.paging;
  const number = (name: string, fallback: number) => {
    const value = params.get(name);
    return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : fallback;
  };
  switch (paging.style) {
    case 'none':
      return null;
    case 'page': {
      const size = Math.min(number(paging.size, paging.pageSize), paging.pageSize);
      return {
        offset: Math.max(0, number(paging.page, paging.firstPage) - paging.firstPage) * size,
        size,
      };
    }
    case 'offset': {
      const size = Math.min(number(paging.limit, paging.pageSize), paging.pageSize);
      return { offset: number(paging.offset, 0), size };
    }
  }
}

/** The portal-dialect answer `text` to `call`, written as the profile's VMS would answer it. */
export function answerInVmsDialect(
  profile: VmsProfile,
  call: OwnCall,
  status: number,
  text: string,
): { status: number; text: string } {
  const body = parse(text);
  if (status < 200 || status >= 300) {
    const message = isObject(body) && isObject(body.error) ? asText(body.error.message) : text;
    return { status, text: JSON.stringify(writePointer(profile.errors.message, message)) };
  }
  if (call.operation === 'requisitionimport' || call.operation === 'candidates') {
    const batchId = isObject(body) ? body[own.batchId] : undefined;
    return {
      status: profile.accepted.statuses[0] ?? status,
      text: JSON.stringify(writePointer(profile.accepted.batchId, batchId)),
    };
  }
  const kind = resultKindOf(call.operation);
  const items = Array.isArray(body) ? body.filter(isObject) : [];
  if (kind) {
    const rows = items
      .sort((a, b) => Number(a[ownRowNames(kind).row]) - Number(b[ownRowNames(kind).row]))
      .map((row) => rowToVms(profile, kind, row));
    return { status, text: JSON.stringify(writePointer(profile.results[kind].rows, rows)) };
  }
  const page = call.page;
  const records = items
    .slice(page?.offset ?? 0, page ? page.offset + page.size : undefined)
    .map((record) => recordToVms(profile, record));
  return { status, text: JSON.stringify(writePointer(profile.list.records, records)) };
}

/**
 * How many of a list's records (in the portal's dialect, after listRecordsFromVms) carry a created
 * or last-updated time the profile could not read: such a value passes as the VMS wrote it, and
 * the portal shows it so, with a warning, never as another date.
 */
export function unreadableRecordDates(records: readonly unknown[]): {
  created: number;
  updated: number;
} {
  const counts = { created: 0, updated: 0 };
  for (const record of records) {
    if (!isObject(record)) continue;
    for (const field of ['created', 'updated'] as const) {
      const value = record[own.list[field]];
      if (typeof value === 'string' && value !== '' && readOwnDateTime(value) === null) {
        counts[field] += 1;
      }
    }
  }
  return counts;
}
