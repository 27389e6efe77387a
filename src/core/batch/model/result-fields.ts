import { z } from 'zod';
import type { ResultRow, WireItem } from './batch-kind';

/** An item's value, trimmed; '' when absent. */
export const readItem = (item: WireItem, key: string) => (item[key] ?? '').trim();

/** GET …results: one row per item of the batch, in order. */
export function resultRowsOf(row: z.ZodType<ResultRow, unknown>, noun: string) {
  return z.array(row, { error: `the results must be a JSON array with one row per ${noun}` });
}
