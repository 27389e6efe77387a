import { z } from 'zod';
import type { RequisitionContext } from './candidate-wire';
import { isBlank } from './field-rules';
import type { RequisitionWireKey } from './requisition-catalog';
import { requisitionCatalog } from './requisition-catalog';

/**
 * One record of GET Requisitions, as the browser reads it. The service names fields in
 * PascalCase and sends every value as a string (the real service's documentation, decision 031);
 * the
 * catalog's `responseName` maps each back to its wire key. Every payload field except
 * `requesttype` may appear; a missing one reads as blank, so a service that leaves out empty
 * fields still parses. Extra fields are ignored. A value that is not a string is a shape we do
 * not understand and fails the parse, so the page can say so rather than show wrong data.
 */
export type RequisitionRecordKey = Exclude<RequisitionWireKey, 'requesttype'>;

const recordFields = requisitionCatalog.filter(
  (def): def is typeof def & { key: RequisitionRecordKey } => def.key !== 'requesttype',
);

export interface RequisitionRecord {
  /** VMS Req ID (`Req_Id`). */
  reqId: string;
  /** ISO UTC date-times as the service gives them; '' when absent. */
  createdAt: string;
  updatedAt: string;
  /** The requisition's values by wire key; DATE values in the service's date format. */
  fields: Record<RequisitionRecordKey, string>;
}

/** Each record field with the name the service sends it under. */
const recordNames = recordFields.map((def) => [def.key, def.responseName ?? def.key] as const);

type Problem = (path: (string | number)[], message: string) => void;

/**
 * One record read in one plain pass, the rules of the schemas below: an object; `Req_Id` a whole
 * number written as a string; every other known field a string, or absent (blank); unknown
 * fields ignored. A list of 2,000 requisitions is read in a Web Worker on a first visit, and a
 * zod object of ~130 fields checked field by field took most of that (three to four times this
 * pass, jitless as the CSP has zod run), so the schemas wrap this instead (as the wire rules are,
 * decision 022). Null after saying what is wrong.
 */
function readRecord(
  input: unknown,
  at: (string | number)[],
  problem: Problem,
): RequisitionRecord | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    problem(at, 'A requisition record must be a JSON object');
    return null;
  }
  const raw = input as Record<string, unknown>;
  let readable = true;
  const read = (name: string): string => {
    const value = raw[name];
    if (value === undefined) return '';
    if (typeof value === 'string') return value;
    problem([...at, name], `${name} must be a string (the service sends every value as text)`);
    readable = false;
    return '';
  };
  const reqId = raw['Req_Id'];
  if (typeof reqId !== 'string') {
    problem([...at, 'Req_Id'], 'Req_Id must be a string such as "40001"');
    readable = false;
  } else if (!/^\d+$/.test(reqId)) {
    problem(
      [...at, 'Req_Id'],
      'Req_Id must be a whole number written as a string, such as "40001"',
    );
    readable = false;
  }
  const createdAt = read('Req_Created_Date_Time');
  const updatedAt = read('Req_Updated_Date_Time');
  const fields = {} as Record<RequisitionRecordKey, string>; // every record key is set below
  for (const [key, name] of recordNames) fields[key] = read(name);
  return readable ? { reqId: String(reqId), createdAt, updatedAt, fields } : null;
}

const issue =
  (ctx: z.core.$RefinementCtx): Problem =>
  (path, message) =>
    ctx.addIssue({ code: 'custom', path, message });

export const requisitionRecordSchema: z.ZodType<RequisitionRecord> = z
  .unknown()
  .transform((input, ctx) => readRecord(input, [], issue(ctx)) ?? z.NEVER);

export const requisitionListSchema: z.ZodType<RequisitionRecord[]> = z
  .unknown()
  .transform((input, ctx) => {
    if (!Array.isArray(input)) {
      ctx.addIssue({
        code: 'custom',
        message: 'GET Requisitions must answer a JSON array of requisition records',
      });
      return z.NEVER;
    }
    const problem = issue(ctx);
    const records: RequisitionRecord[] = [];
    let readable = true;
    input.forEach((item, index) => {
      const record = readRecord(item, [index], problem);
      if (record) records.push(record);
      else readable = false;
    });
    return readable ? records : z.NEVER;
  });

/**
 * The record as an Amend payload (wire keys, dates still in the service's format): every current
 * value, with `requesttype` A. The Amend finds its requisition by `clientinternalreq`, which may
 * hold the client internal reference or the VMS Req ID (spec, "Requisition import").
 */
export function requisitionRecordToAmendWire(
  record: RequisitionRecord,
): Partial<Record<RequisitionWireKey, string>> {
  return {
    ...record.fields,
    requesttype: 'A',
    clientinternalreq: isBlank(record.fields.clientinternalreq)
      ? record.reqId
      : record.fields.clientinternalreq,
  };
}

function lastFilledRow(record: RequisitionRecord, group: 'skills' | 'questions'): number {
  let last = 0;
  for (const def of recordFields) {
    const row = def.row;
    // The sequence number alone does not make a row: its content does.
    if (row?.group !== group || row.part === 'sequence') continue;
    if (!isBlank(record.fields[def.key])) last = Math.max(last, row.n);
  }
  return last;
}

/**
 * How many skills and questions the requisition has: what a candidate must answer.
 * Rows are numbered without gaps, so the last filled row is the count.
 */
export function requisitionRecordShape(record: RequisitionRecord): RequisitionContext {
  return {
    skillCount: lastFilledRow(record, 'skills'),
    questionCount: lastFilledRow(record, 'questions'),
  };
}
