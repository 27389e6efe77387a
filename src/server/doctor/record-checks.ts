import { commonPatterns, readDate, readDateTime } from '@/domain/date-patterns';
import { requisitionCatalog } from '@/domain/requisition-catalog';
import type { VmsProfile } from '@/domain/vms-profile';

/**
 * What the doctor checks in the requisition records a VMS lists: how their fields are named and
 * how their dates are written, each against the profile, with the setting that would fit when the
 * profile does not.
 */

export type JsonRecord = Record<string, unknown>;

const catalogFields = requisitionCatalog.filter((def) => def.key !== 'requesttype');

/** Names only PascalCase records use (TitleRole), and only payload-style ones (titlerole). */
const pascalOnly = new Set(
  catalogFields
    .filter((def) => def.responseName !== undefined && def.responseName !== def.key)
    .map((def) => def.responseName as string),
);
const payloadOnly = new Set(
  catalogFields
    .filter((def) => def.responseName !== undefined && def.responseName !== def.key)
    .map((def) => def.key as string),
);

/** The DATE fields of a record, under either naming style. */
const dateFields = catalogFields
  .filter((def) => def.type === 'DATE')
  .map((def) => ({ pascal: def.responseName ?? def.key, payload: def.key as string }));

export interface StyleVerdict {
  /** The style the records use, or null when their field names do not tell. */
  seen: VmsProfile['list']['fieldNames'] | null;
  example: string | null;
}

/** Which naming style the records' payload fields follow. */
export function fieldNameStyle(records: readonly JsonRecord[]): StyleVerdict {
  let pascal: string | null = null;
  let payload: string | null = null;
  for (const record of records) {
    for (const key of Object.keys(record)) {
      if (pascal === null && pascalOnly.has(key)) pascal = key;
      if (payload === null && payloadOnly.has(key)) payload = key;
    }
  }
  if (pascal !== null && payload === null) return { seen: 'PascalCase', example: pascal };
  if (payload !== null && pascal === null) return { seen: 'payload', example: payload };
  return { seen: null, example: null };
}

/** Keys of the records that look like the one a `list.fields` name was meant for. */
export function lookalikes(records: readonly JsonRecord[], field: string): string[] {
  const pattern =
    field === 'reqId' ? /req.*id|^id$/i : field === 'created' ? /creat/i : /updat|modif/i;
  const keys = new Set<string>();
  for (const record of records) for (const key of Object.keys(record)) keys.add(key);
  return [...keys].filter((key) => pattern.test(key)).slice(0, 3);
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return String(value);
  return '';
}

export interface DateFinding {
  /** The values looked at (non-empty). */
  values: string[];
  /** Whether every value reads in the profile's format. */
  fits: boolean;
  /** A value that does not, for the finding. */
  misfit: string | null;
  /** The formats every value reads in. */
  fitting: string[];
  /**
   * Other formats that read every value too, but as other dates or times (`05/03/2026` as 5 March
   * and as 3 May): the values do not show which the VMS writes.
   */
  ambiguousWith: string[];
  /** For each other common format, a value it cannot read: the evidence that rules it out. */
  ruledOut: { format: string; value: string }[];
}

function judge(
  values: string[],
  configured: string,
  formats: readonly string[],
  read: (value: string, format: string) => string | number | null,
): DateFinding {
  const reads = (value: string, format: string) => read(value, format) !== null;
  const misfit = values.find((value) => !reads(value, configured)) ?? null;
  const fitting = formats.filter((format) => values.every((value) => reads(value, format)));
  const ambiguousWith =
    misfit !== null
      ? []
      : fitting.filter(
          (format) =>
            format !== configured &&
            values.some((value) => read(value, format) !== read(value, configured)),
        );
  const ruledOut = formats.flatMap((format) => {
    if (format === configured) return [];
    const value = values.find((one) => !reads(one, format));
    return value === undefined ? [] : [{ format, value }];
  });
  return { values, fits: misfit === null, misfit, fitting, ambiguousWith, ruledOut };
}

/** The records' created/updated date-times against `dates.dateTimes`. */
export function checkDateTimes(profile: VmsProfile, records: readonly JsonRecord[]): DateFinding {
  const { created, updated } = profile.list.fields;
  const values = records
    .flatMap((record) => [text(record[created]), text(record[updated])])
    .filter((value) => value !== '');
  const { timeZone } = profile.dates;
  return judge(values, profile.dates.dateTimes, commonPatterns['date-time'], (value, pattern) => {
    const instant = readDateTime(value, pattern, timeZone);
    return typeof instant === 'number' ? instant : null;
  });
}

/** The records' DATE fields (StartDate…) against `dates.records`. */
export function checkRecordDates(profile: VmsProfile, records: readonly JsonRecord[]): DateFinding {
  const values = records
    .flatMap((record) =>
      dateFields.map((field) => text(record[field.pascal] ?? record[field.payload])),
    )
    .filter((value) => value !== '');
  return judge(values, profile.dates.records, commonPatterns.date, (value, pattern) =>
    readDate(value, pattern),
  );
}
