import { commonPatterns, readDate, readDateTime } from '@/domain/date-patterns';
import { requisitionCatalog } from '@/domain/requisition-catalog';
import { fieldNameIn, listFieldNamings, type VmsProfile } from '@/domain/vms-profile';

/**
 * What the doctor checks in the requisition records a VMS lists: how their fields are named and
 * how their dates are written, each against the profile, with the setting that would fit when the
 * profile does not.
 */

export type JsonRecord = Record<string, unknown>;

const catalogFields = requisitionCatalog.filter((def) => def.key !== 'requesttype');

const namings = listFieldNamings;
type Naming = (typeof namings)[number];
const namedFields = catalogFields.map((def) => ({
  own: def.responseName ?? def.key,
  payload: def.key as string,
}));

/** For each naming, the names only it gives a field (TitleRole, titleRole, titlerole). */
const onlyIn = new Map<Naming, Set<string>>(
  namings.map((naming) => [
    naming,
    new Set(
      namedFields
        .map((field) => fieldNameIn(naming, field))
        .filter(
          (name) =>
            namings.filter((other) =>
              namedFields.some((field) => fieldNameIn(other, field) === name),
            ).length === 1,
        ),
    ),
  ]),
);

/** The DATE fields of a record, under each naming. */
const dateFields = catalogFields
  .filter((def) => def.type === 'DATE')
  .map((def) =>
    namings.map((naming) =>
      fieldNameIn(naming, { own: def.responseName ?? def.key, payload: def.key }),
    ),
  );

export interface StyleVerdict {
  /** The style the records use, or null when their field names do not tell. */
  seen: VmsProfile['list']['fieldNames'] | null;
  example: string | null;
}

/** Which naming style the records' payload fields follow: one, and only one, seen. */
export function fieldNameStyle(records: readonly JsonRecord[]): StyleVerdict {
  const seen = new Map<Naming, string>();
  for (const record of records) {
    for (const key of Object.keys(record)) {
      for (const naming of namings) {
        if (!seen.has(naming) && onlyIn.get(naming)?.has(key)) seen.set(naming, key);
      }
    }
  }
  const [only, ...others] = [...seen];
  if (only && others.length === 0) return { seen: only[0], example: only[1] };
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
      dateFields.map((names) =>
        text(names.map((name) => record[name]).find((value) => value !== undefined)),
      ),
    )
    .filter((value) => value !== '');
  return judge(values, profile.dates.records, commonPatterns.date, (value, pattern) =>
    readDate(value, pattern),
  );
}
