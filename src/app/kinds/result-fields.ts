import { z } from 'zod';
import type { ResultRow, WireItem } from '../../features/batch/model/batch-kind';

/** `Row` is a number in the sandbox; a service that sends "3" is read the same. */
export const resultRowNumber = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/).transform(Number),
]);

/** A text field of a results row: a number is read as its digits, null or absent as ''. */
export const resultText = z
  .union([z.string(), z.number().transform(String)])
  .nullish()
  .transform((v) => v ?? '');

/** An item's value, trimmed; '' when absent. */
export const readItem = (item: WireItem, key: string) => (item[key] ?? '').trim();

/** GET …results: one row per item of the batch, in order. */
export function resultRowsOf(row: z.ZodType<ResultRow, unknown>, noun: string) {
  return z.array(row, { error: `the results must be a JSON array with one row per ${noun}` });
}
