import type { DateFormat, RequisitionWire, RequisitionWireKey } from '@/domain';
import {
  blankRequisitionWire,
  formatWireDate,
  isBlank,
  requisitionCatalog,
  requisitionField,
  requisitionResponseName,
  requisitionWireKeys,
} from '@/domain';

/**
 * A stored requisition: every payload field except requesttype, as strings ('' = blank), with the
 * server-side defaults and references already resolved (both reqclassid and fullreqpath, owner id
 * and names, both code and id of each accounting reference…). DATE values are kept as ISO
 * `YYYY-MM-DD` and written in the configured format on the way out, so changing VMS_DATE_FORMAT
 * does not invalidate stored data.
 */
export type RequisitionRecordKey = Exclude<RequisitionWireKey, 'requesttype'>;
export type RequisitionRecord = Record<RequisitionRecordKey, string>;

export const requisitionRecordKeys: readonly RequisitionRecordKey[] = requisitionWireKeys.filter(
  (key): key is RequisitionRecordKey => key !== 'requesttype',
);

/** The payload's DATE fields, from the catalog (startdate, enddate, nonewsubmittalsafter). */
export const requisitionDateKeys: ReadonlySet<string> = new Set(
  requisitionCatalog.filter((def) => def.type === 'DATE').map((def) => def.key),
);

export function blankRequisitionRecord(): RequisitionRecord {
  const { requesttype: _requesttype, ...record } = blankRequisitionWire();
  return record;
}

/**
 * The record's fields of a validated payload (requesttype dropped), each trimmed: the domain reads
 * a value of only spaces as blank, so the sandbox stores it as blank.
 */
export function recordFromWire(wire: RequisitionWire): RequisitionRecord {
  const { requesttype: _requesttype, ...record } = wire;
  for (const key of requisitionRecordKeys) record[key] = record[key].trim();
  return record;
}

/** Row n's fields that make the row count as given (the sequence number alone does not). */
function rowContentKeys(group: 'skills' | 'questions'): RequisitionWireKey[][] {
  const rows: RequisitionWireKey[][] = [];
  for (const def of requisitionCatalog) {
    const row = def.row;
    if (row?.group !== group || row.part === 'sequence') continue;
    (rows[row.n - 1] ??= []).push(def.key);
  }
  return rows;
}
const skillRowContent = rowContentKeys('skills');
const questionRowContent = rowContentKeys('questions');

function filledRows(
  record: RequisitionRecord | RequisitionWire,
  rows: RequisitionWireKey[][],
): number[] {
  const read = (key: RequisitionWireKey): string => (key === 'requesttype' ? '' : record[key]);
  return rows.flatMap((keys, index) =>
    keys.some((key) => !isBlank(read(key))) ? [index + 1] : [],
  );
}

/**
 * Skill rows that carry anything besides the sequence number, as the domain counts them. Rows are
 * numbered without gaps (the domain refuses gaps), so the last number is the skill count.
 */
export function skillNumbers(record: RequisitionRecord | RequisitionWire): number[] {
  return filledRows(record, skillRowContent);
}

/** Question rows with a question text. */
export function questionNumbers(record: RequisitionRecord | RequisitionWire): number[] {
  return filledRows(record, questionRowContent);
}

/** Skill item fields (skill<n>, skilldescription<n>…), per the catalog's row groups. */
export function isSkillKey(key: RequisitionWireKey): boolean {
  return requisitionField(key)?.row?.group === 'skills';
}

export function isQuestionKey(key: RequisitionWireKey): boolean {
  return requisitionField(key)?.row?.group === 'questions';
}

export function formatIsoDateTime(date: Date): string {
  // Whole seconds, as the interface shows times: 2026-11-21T19:31:00Z.
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface StoredRequisition {
  reqId: number;
  clientOrgId: number;
  orgId: number;
  clientInternalReq: string;
  createdAt: string;
  updatedAt: string;
  record: RequisitionRecord;
}

/** One GET /requisitions record: PascalCase names, every value a string. */
export function requisitionResponse(
  stored: StoredRequisition,
  dateFormat: DateFormat,
): Record<string, string> {
  const response: Record<string, string> = {
    Req_Id: String(stored.reqId),
    Req_Created_Date_Time: stored.createdAt,
    Req_Updated_Date_Time: stored.updatedAt,
  };
  for (const key of requisitionRecordKeys) {
    const value = stored.record[key];
    response[requisitionResponseName(key)] =
      requisitionDateKeys.has(key) && value !== '' ? formatWireDate(value, dateFormat) : value;
  }
  return response;
}
