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

const blankable = z.string().default('');

const recordShape: Record<string, z.ZodDefault<z.ZodString> | z.ZodString> = {
  Req_Id: z
    .string({ error: 'Req_Id must be a string such as "40001"' })
    .regex(/^\d+$/, 'Req_Id must be a whole number written as a string, such as "40001"'),
  Req_Created_Date_Time: blankable,
  Req_Updated_Date_Time: blankable,
};
for (const def of recordFields) recordShape[def.responseName ?? def.key] = blankable;

export interface RequisitionRecord {
  /** VMS Req ID (`Req_Id`). */
  reqId: string;
  /** ISO UTC date-times as the service gives them; '' when absent. */
  createdAt: string;
  updatedAt: string;
  /** The requisition's values by wire key; DATE values in the service's date format. */
  fields: Record<RequisitionRecordKey, string>;
}

export const requisitionRecordSchema = z
  .looseObject(recordShape)
  .transform((raw): RequisitionRecord => {
    const read = (name: string): string => {
      const value = raw[name];
      return typeof value === 'string' ? value : '';
    };
    const fields = {} as Record<RequisitionRecordKey, string>; // every record key is set below
    for (const def of recordFields) fields[def.key] = read(def.responseName ?? def.key);
    return {
      reqId: read('Req_Id'),
      createdAt: read('Req_Created_Date_Time'),
      updatedAt: read('Req_Updated_Date_Time'),
      fields,
    };
  });

export const requisitionListSchema = z.array(requisitionRecordSchema, {
  error: 'GET Requisitions must answer a JSON array of requisition records',
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
