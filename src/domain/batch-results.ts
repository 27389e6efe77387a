import { z } from 'zod';

/**
 * GET requisitionresults / candidateresults (docs/sandbox.md, "Operations"; for
 * candidates the real service's documentation, decision 031): one row per item, in order. The
 * sandbox writes its rows in the fields its payload kind names (payload-kind.ts) and the browser
 * reads them with these schemas, leniently, since a real VMS may send `Row` as "3" or leave a
 * text field out.
 */

/** Every status a requisition row may have, and a candidate row. */
export const requisitionResultStatuses = ['Pending', 'Success', 'Error'] as const;
export const candidateResultStatuses = ['Pending', 'New', 'Incomplete', 'Error'] as const;

/** One row read from either results call, in the portal's own terms. */
export interface BatchResultRow {
  /** 1-based position in the batch. */
  row: number;
  status: string;
  /** ErrorMessage / CandErrorMessage; '' when none. */
  message: string;
  /** Req_Id / Cand_Id; '' until known. */
  createdId: string;
  /** ClientInternalReq / Vendor_Candidate_Id, as the VMS echoes it. */
  reference: string;
}

/** `Row` is a number in the sandbox; a service that sends "3" is read the same. */
const rowNumber = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/).transform(Number),
]);

/** A text field: a number is read as its digits, null or absent as ''. */
const text = z
  .union([z.string(), z.number().transform(String)])
  .nullish()
  .transform((value) => value ?? '');

export const requisitionResultRowSchema = z
  .looseObject({
    Batch_Id: z.string().optional(),
    Row: rowNumber,
    Status: z.string().min(1),
    ErrorMessage: text,
    Req_Id: text,
    ClientInternalReq: text,
  })
  .transform((raw): BatchResultRow => ({
    row: raw.Row,
    status: raw.Status,
    message: raw.ErrorMessage,
    createdId: raw.Req_Id,
    reference: raw.ClientInternalReq,
  }));

/** The real service names the status `Cand_Status`; the sandbox sends it and `Status`. */
export const candidateResultRowSchema = z
  .looseObject({
    Batch_Id: z.string().optional(),
    Row: rowNumber,
    Status: z.string().optional(),
    Cand_Status: z.string().optional(),
    CandErrorMessage: text,
    Cand_Id: text,
    Vendor_Candidate_Id: text,
  })
  .refine((raw) => Boolean(raw.Cand_Status || raw.Status), {
    message: 'each candidate result row must have a Cand_Status (or Status)',
  })
  .transform((raw): BatchResultRow => ({
    row: raw.Row,
    status: raw.Cand_Status || raw.Status || '',
    message: raw.CandErrorMessage,
    createdId: raw.Cand_Id,
    reference: raw.Vendor_Candidate_Id,
  }));

/** A stored status as one of a kind's statuses; any other is a bug in whoever stored it. */
export function resultStatus<const T extends readonly string[]>(
  statuses: T,
  value: string,
): T[number] {
  const found = statuses.find((status) => status === value);
  if (found === undefined) throw new Error(`"${value}" is not one of ${statuses.join(', ')}`);
  return found;
}

/** How many rows have each status, in the order the statuses first appear. */
export function countStatuses<Row extends { status: string }>(
  rows: readonly Row[],
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of rows) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/** "2 Success, 1 Error": each status with its count, as counted. */
export function countsText(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
}
