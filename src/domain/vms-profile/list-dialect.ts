import { namedDateTimeFormats } from '@/domain/date-pattern-tokens';
import { ownDateTime, readDateTime, readOwnDateTime, writeDateTime } from '@/domain/date-patterns';
import { convertWireDate } from '@/domain/dates';
import { requisitionCatalog } from '@/domain/requisition-catalog';
import type { RequisitionFilterOperator } from '@/domain/vms-contract';
import { readPointer } from './json-pointer';
import type { VmsProfile } from './profile';

/**
 * The requisition list in a profile's dialect: its records' field names and date-times, its
 * filter's names and operator words, its paging and its total. The proxy writes the portal's
 * list calls with it and reads the answers; the sandbox reads such calls and writes such answers
 * (dialect.ts, which also holds the other operations).
 */

/** The portal's own names for the list's filter and its records' own fields. */
export const ownList = {
  filter: { field: 'filterfield', operator: 'filteroperator', value: 'filtervalue' },
  fields: { reqId: 'Req_Id', created: 'Req_Created_Date_Time', updated: 'Req_Updated_Date_Time' },
} as const;

type Json = unknown;
export type JsonObject = Record<string, Json>;

export function isJsonObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJson(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

export function asText(value: Json): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

// ── Records ──────────────────────────────────────────────────────────────────────────────────

/** Each payload field of a record: its PascalCase name, its payload name, and whether it is a DATE. */
const recordFields = requisitionCatalog
  .filter((def) => def.key !== 'requesttype')
  .map((def) => ({
    own: def.responseName ?? def.key,
    payload: def.key as string,
    date: def.type === 'DATE',
  }));

/** A record field's name in one of the namings a profile may give (list.fieldNames). */
export function fieldNameIn(
  naming: VmsProfile['list']['fieldNames'],
  field: { own: string; payload: string },
): string {
  switch (naming) {
    case 'PascalCase':
      return field.own;
    case 'camelCase':
      return field.own.charAt(0).toLowerCase() + field.own.slice(1);
    case 'payload':
      return field.payload;
  }
}

const recordName = (profile: VmsProfile, field: (typeof recordFields)[number]) =>
  fieldNameIn(profile.list.fieldNames, field);

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
  const own = ownList.fields;
  const result: JsonObject = {
    [own.reqId]: asText(record[fields.reqId]),
    [own.created]: dateTimeToOwn(asText(record[fields.created]), profile.dates),
    [own.updated]: dateTimeToOwn(asText(record[fields.updated]), profile.dates),
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

/** A record in the portal's names, written as the profile's VMS lists it. */
export function recordToVms(profile: VmsProfile, record: JsonObject): JsonObject {
  const { fields } = profile.list;
  const own = ownList.fields;
  const result: JsonObject = {
    [fields.reqId]: asText(record[own.reqId]),
    [fields.created]: dateTimeToVms(asText(record[own.created]), profile.dates),
    [fields.updated]: dateTimeToVms(asText(record[own.updated]), profile.dates),
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

/** What the portal could not read in a VMS's answer: said to the user, with the answer kept raw. */
export interface UnreadableAnswer {
  unreadable: string;
}

/** The records of one list answer, in the portal's names; or what made it unreadable. */
export function listRecordsFromVms(
  profile: VmsProfile,
  text: string,
): JsonObject[] | UnreadableAnswer {
  const records = readPointer(parseJson(text), profile.list.records);
  if (!Array.isArray(records)) {
    return {
      unreadable: `no array of records at "${profile.list.records}" (list.records)`,
    };
  }
  return records.filter(isJsonObject).map((record) => recordToOwn(profile, record));
}

/**
 * How many records the VMS says the client has in all (`list.total`): null when the profile
 * names no total; unreadable when the answer has no whole number there.
 */
export function listTotalFromVms(
  profile: VmsProfile,
  text: string,
): number | null | UnreadableAnswer {
  const pointer = profile.list.total;
  if (pointer === undefined) return null;
  const value = readPointer(parseJson(text), pointer);
  const total = typeof value === 'string' && /^\d{1,12}$/.test(value) ? Number(value) : value;
  if (typeof total === 'number' && Number.isSafeInteger(total) && total >= 0) return total;
  return { unreadable: `no count of records at "${pointer}" (list.total)` };
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
    if (!isJsonObject(record)) continue;
    for (const field of ['created', 'updated'] as const) {
      const value = record[ownList.fields[field]];
      if (typeof value === 'string' && value !== '' && readOwnDateTime(value) === null) {
        counts[field] += 1;
      }
    }
  }
  return counts;
}

/** The tokens a day and its month are written with, each for the other. */
const daySwapped: Record<string, string> = { DD: 'MM', D: 'M', MM: 'DD', M: 'D' };

/**
 * `pattern` with its day and month written each in the other's place (`DD/MM/YYYY HH:mm:ss` for
 * `MM/DD/YYYY HH:mm:ss`); null for a named format or a pattern without both. Bracketed text is
 * left as it is.
 */
export function dayMonthSwapped(pattern: string): string | null {
  if ((namedDateTimeFormats as readonly string[]).includes(pattern)) return null;
  let day = false;
  let month = false;
  const swapped = pattern
    .split(/(\[[^\]]*\])/)
    .map((part) =>
      part.startsWith('[')
        ? part
        : part.replace(/DD|D|MM|M/g, (token) => {
            if (token.startsWith('D')) day = true;
            else month = true;
            return daySwapped[token] ?? token;
          }),
    )
    .join('');
  return day && month ? swapped : null;
}

/**
 * A list's records (in the portal's names, after listRecordsFromVms) with every created or
 * updated time that reads both day first and month first put back as the VMS wrote it, once
 * another time of the same list shows the profile's order is the wrong one: it did not read in
 * `dates.dateTimes` but does with day and month swapped (`15/03/2026 07:00:00` from a VMS the
 * profile calls month first). The list then shows those as written, with the warning, rather
 * than `05/03/2026` as 3 May; a list that proves nothing is returned as it came.
 */
export function withoutMisreadDates(profile: VmsProfile, records: JsonObject[]): JsonObject[] {
  const { dateTimes, timeZone } = profile.dates;
  const swapped = dayMonthSwapped(dateTimes);
  if (swapped === null) return records;
  const readsSwapped = (text: string) => typeof readDateTime(text, swapped, timeZone) === 'number';
  const fields = [ownList.fields.created, ownList.fields.updated];
  const proven = records.some((record) =>
    fields.some((field) => {
      const value = record[field];
      return (
        typeof value === 'string' &&
        value !== '' &&
        readOwnDateTime(value) === null &&
        readsSwapped(value)
      );
    }),
  );
  if (!proven) return records;
  return records.map((record) => {
    let result = record;
    for (const field of fields) {
      const value = record[field];
      const utcMs = typeof value === 'string' ? readOwnDateTime(value) : null;
      if (utcMs === null) continue;
      // The reader takes only what the pattern writes, so this is the text the VMS sent.
      const written = writeDateTime(utcMs, dateTimes, timeZone);
      if (readsSwapped(written)) result = { ...result, [field]: written };
    }
    return result;
  });
}

// ── The filter ───────────────────────────────────────────────────────────────────────────────

/** The VMS's word for the portal's operator: the profile's, or the symbol itself. */
export function operatorToVms(profile: VmsProfile, operator: string): string {
  const words = profile.list.filter.operators;
  return words?.[operator as RequisitionFilterOperator] ?? operator;
}

/**
 * The portal's operator for the VMS's word; a word the VMS does not have comes back marked, so
 * the sandbox refuses it as that VMS would (a symbol sent to a VMS of words is no operator there).
 */
function operatorToOwn(profile: VmsProfile, word: string): string {
  const words = profile.list.filter.operators;
  if (!words) return word;
  const found = Object.entries(words).find(([, vmsWord]) => vmsWord === word)?.[0];
  return found ?? `${word}${notAnOperator}`;
}

/** Marks a word the profile's VMS does not have as an operator (operatorToOwn). */
export const notAnOperator = ' (not an operator of this VMS)';

const isOwnDateTimeField = (field: string | null) =>
  field === ownList.fields.created || field === ownList.fields.updated;

/** The portal's list query, `params` in its own names, with the filter in the profile's. */
export function listQueryToVms(profile: VmsProfile, params: URLSearchParams): URLSearchParams {
  const renamed = new URLSearchParams();
  const field = params.get(ownList.filter.field);
  const names = profile.list.fields;
  for (const [name, value] of params) {
    if (name === ownList.filter.field) {
      const key = Object.entries(ownList.fields).find(([, ownName]) => ownName === value)?.[0];
      renamed.append(profile.list.filter.field, key ? names[key as keyof typeof names] : value);
    } else if (name === ownList.filter.operator) {
      renamed.append(profile.list.filter.operator, operatorToVms(profile, value));
    } else if (name === ownList.filter.value) {
      renamed.append(
        profile.list.filter.value,
        isOwnDateTimeField(field) ? dateTimeToVms(value, profile.dates) : value,
      );
    } else {
      renamed.append(name, value);
    }
  }
  return renamed;
}

/** One list parameter of a call in the profile's dialect, in the portal's; null when ignored. */
export function listParameterToOwn(
  profile: VmsProfile,
  name: string,
  value: string,
  params: URLSearchParams,
): [string, string] | null {
  const filter = profile.list.filter;
  const fields = profile.list.fields;
  if (name === filter.field) {
    const key = Object.entries(fields).find(([, vmsName]) => vmsName === value)?.[0];
    return [ownList.filter.field, key ? ownList.fields[key as keyof typeof fields] : value];
  }
  if (name === filter.operator) return [ownList.filter.operator, operatorToOwn(profile, value)];
  if (name === filter.value) {
    const field = params.get(filter.field);
    const isDateTime = field === fields.created || field === fields.updated;
    return [ownList.filter.value, isDateTime ? dateTimeToOwn(value, profile.dates) : value];
  }
  // A VMS ignores a parameter it does not know: the portal's own filter names, sent to a VMS
  // that names its filter otherwise, filter nothing there (and must not here either).
  if ((Object.values(ownList.filter) as string[]).includes(name)) return null;
  return [name, value];
}
