import { payloadKindDescriptors, payloadKindOf, type PayloadKind } from '@/domain/payload-kind';
import type { VmsOperation } from '@/domain/vms-contract';
import { readPointer, writePointer, writePointerInto } from './json-pointer';
import {
  asText,
  isJsonObject as isObject,
  listParameterToOwn,
  listQueryToVms,
  parseJson as parse,
  recordToVms,
  type UnreadableAnswer,
} from './list-dialect';
import { joinQuery, pageAskedFor, pageParameters, shownListFromVms } from './list-paging';
import type { VmsProfile } from './profile';

/**
 * Translating between the portal's own dialect of the VMS interface (the one its browser code,
 * its tests and the `sandbox` profile speak) and a connection's profile. The proxy uses the
 * `toVms…`/`fromVms…` half on every call to a VMS whose profile differs; the sandbox uses the
 * other half to answer in any profile. Request bodies are never translated: the payloads are
 * fully specified, and the VMS receives exactly the bytes the user sent.
 */

/** The portal's own names, as its browser code reads them (the list's are in list-dialect.ts). */
const own = { batchId: 'batchid' } as const;

/** The kind whose results `operation` reads; null for another operation. */
function resultKindOf(operation: VmsOperation): PayloadKind | null {
  return (
    Object.values(payloadKindDescriptors).find((kind) => kind.resultsOperation === operation)?.id ??
    null
  );
}

type Json = unknown;
type JsonObject = Record<string, Json>;

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
  if (operation === 'requisitions') return joinQuery(template, listQueryToVms(profile, params));
  return joinQuery(template, params);
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
  const records = shownListFromVms(profile, text);
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
    const page = pageAskedFor(profile, params);
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
  return listParameterToOwn(profile, name, value, params);
}

/** The portal-dialect answer `text` to `call`, written as the profile's VMS would answer it. */
export function answerInVmsDialect(
  profile: VmsProfile,
  call: OwnCall,
  status: number,
  text: string,
  /** How many records the client has in all, for a list whose profile names a total. */
  listTotal?: number,
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
  const answer = writePointer(profile.list.records, records);
  return {
    status,
    text: JSON.stringify(
      profile.list.total !== undefined && listTotal !== undefined
        ? writePointerInto(answer, profile.list.total, listTotal)
        : answer,
    ),
  };
}
