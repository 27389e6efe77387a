import { requisitionCatalog } from '@/domain/requisition-catalog';
import type { VmsProfile } from '@/domain/vms-profile';
import {
  checkDateTimes,
  checkRecordDates,
  fieldNameStyle,
  type DateFinding,
  type JsonRecord,
} from '@/server/doctor/record-checks';
import { guess, proved, undecided, type Evidence } from './evidence';

/**
 * What one list answer's records show: how their fields are named, which field is the id and
 * which the created and updated times, and how dates and date-times are written. The date
 * evidence is the doctor's own (record-checks.ts): a pattern is proved only when every other
 * common pattern either cannot read some value or reads every value the same (a day above 12
 * settles day/month order, an hour above 12 the 24-hour clock).
 */

type Field = keyof VmsProfile['list']['fields'];

/** The payload's own fields under either naming: never the id or a time. */
const catalogNames = new Set(
  requisitionCatalog.flatMap((def) => [def.key as string, def.responseName ?? def.key]),
);

const fieldPatterns: Record<Field, RegExp> = {
  reqId: /^(req_?id|requisition_?id|id)$/i,
  created: /creat/i,
  updated: /updat|modif/i,
};

/** The keys every record has that may be `field`, the likeliest first. */
function fieldCandidates(sample: readonly JsonRecord[], field: Field): string[] {
  const keys = Object.keys(sample[0] ?? {}).filter(
    (key) => !catalogNames.has(key) && sample.every((record) => record[key] !== undefined),
  );
  return keys.filter((key) => fieldPatterns[field].test(key));
}

export interface RecordsFinding {
  /** What the records proved, to lay over the profile. */
  fieldNames?: VmsProfile['list']['fieldNames'];
  fields?: VmsProfile['list']['fields'];
  dateTimes?: string | undefined;
  records?: string | undefined;
  outbound?: string;
}

function pick(
  finding: DateFinding,
  key: string,
  what: string,
  recheck: (pattern: string) => DateFinding,
  evidence: Evidence,
): string | undefined {
  const chosen = finding.fitting[0];
  if (finding.values.length === 0) {
    evidence[key] = undecided(`the records listed have no ${what} filled in`);
    return undefined;
  }
  if (chosen === undefined) {
    evidence[key] = undecided(
      `no pattern the portal knows reads every one of the ${what} (such as "${finding.values[0] ?? ''}"): ask the VMS how it writes them`,
    );
    return undefined;
  }
  const settled = recheck(chosen);
  const ruledOut = settled.ruledOut.map(({ format, value }) => `"${value}" cannot be ${format}`);
  if (settled.ambiguousWith.length === 0) {
    evidence[key] = proved(
      `${settled.values.length} ${what} read as ${chosen}, and no other known pattern reads them so${ruledOut.length > 0 ? ` (${ruledOut.join('; ')})` : ''}`,
    );
  } else {
    evidence[key] = guess(
      `every one of the ${settled.values.length} ${what} read was ambiguous: each reads as ${chosen} and as ${settled.ambiguousWith.join(' and as ')}, as other dates (no day above 12, no hour above 12)`,
    );
  }
  return chosen;
}

export function readRecords(
  base: VmsProfile,
  sample: readonly JsonRecord[],
  evidence: Evidence,
): RecordsFinding {
  const found: RecordsFinding = {};
  const style = fieldNameStyle(sample);
  if (style.seen !== null) {
    found.fieldNames = style.seen;
    evidence['list.fieldNames'] = proved(
      `the records name their fields in ${style.seen} style (such as "${style.example ?? ''}")`,
    );
  } else {
    evidence['list.fieldNames'] = undecided(
      'the records have no field whose name tells PascalCase from payload style',
    );
  }
  const fields: Partial<Record<Field, string>> = {};
  for (const field of ['reqId', 'created', 'updated'] as const) {
    const candidates = fieldCandidates(sample, field);
    const name = candidates[0];
    if (name === undefined) {
      evidence[`list.fields.${field}`] = undecided(
        `no field every record has looks like the ${field === 'reqId' ? 'requisition id' : `${field} time`} (${fieldPatterns[field].source})`,
      );
      continue;
    }
    fields[field] = name;
    const also =
      candidates.length > 1 ? `; ${candidates.slice(1).join(', ')} look like it too` : '';
    const ids = sample.map((record) => String(record[name]));
    evidence[`list.fields.${field}`] =
      field === 'reqId' && new Set(ids).size !== ids.length
        ? guess(`"${name}" looks like the id, but its values repeat across records${also}`)
        : (candidates.length > 1 ? guess : proved)(
            `every one of ${sample.length} records has "${name}"${field === 'reqId' ? ', each a different value' : ''}${also}`,
          );
  }
  if (fields.reqId === undefined || fields.created === undefined || fields.updated === undefined) {
    evidence['dates.dateTimes'] = undecided('the created and updated fields were not found');
  } else {
    found.fields = { reqId: fields.reqId, created: fields.created, updated: fields.updated };
    const withFields = { ...base, list: { ...base.list, fields: found.fields } };
    const at = (dateTimes: string): VmsProfile => ({
      ...withFields,
      dates: { ...withFields.dates, dateTimes },
    });
    found.dateTimes = pick(
      checkDateTimes(at('iso-8601'), sample),
      'dates.dateTimes',
      'created and updated date-times',
      (pattern) => checkDateTimes(at(pattern), sample),
      evidence,
    );
  }
  const withDates = (records: string): VmsProfile => ({
    ...base,
    dates: { ...base.dates, records },
  });
  found.records = pick(
    checkRecordDates(withDates('YYYY-MM-DD'), sample),
    'dates.records',
    'DATE fields (StartDate…)',
    (pattern) => checkRecordDates(withDates(pattern), sample),
    evidence,
  );
  if (found.records !== undefined) {
    found.outbound = found.records;
    evidence['dates.outbound'] = guess(
      `the DATE pattern the VMS writes its records in (${found.records}); what it reads in a POST is not seen without sending one`,
    );
  } else {
    evidence['dates.outbound'] = undecided('no DATE field was read, and the draft sends nothing');
  }
  const zoned = ['iso-8601', 'unix-seconds', 'unix-milliseconds'];
  evidence['dates.timeZone'] =
    found.dateTimes !== undefined && zoned.includes(found.dateTimes)
      ? proved(`not needed: ${found.dateTimes} date-times say their own instant`)
      : undecided(
          "a date-time without an offset does not say its zone: the preset's UTC applies; set the VMS's zone if it writes local times",
        );
  return found;
}
