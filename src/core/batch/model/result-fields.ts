import { z } from 'zod';
import type { BatchResultRow } from '../../../domain/batch-results';
import type { Tone } from '../../../shared/ui/status-badge';
import type { ResultRow, WireItem } from './batch-kind';

/** An item's value, trimmed; '' when absent. */
export const readItem = (item: WireItem, key: string) => (item[key] ?? '').trim();

/**
 * GET …results: one row per item of the batch, in order, each with its status's tone (`tones`,
 * the kind's statuses; an unknown one is neutral). Pending and Error mean the same for every
 * kind.
 */
export function resultRowsOf(
  row: z.ZodType<BatchResultRow, unknown>,
  toneOf: (status: string) => Tone,
  noun: string,
) {
  return z.array(
    row.transform((read): ResultRow => ({
      ...read,
      tone: toneOf(read.status),
      pending: read.status === 'Pending',
      failed: read.status === 'Error',
    })),
    { error: `the results must be a JSON array with one row per ${noun}` },
  );
}

/** A kind's status → tone lookup; statuses it does not know are neutral. */
export const tonesOf =
  (tones: Readonly<Record<string, Tone>>) =>
  (status: string): Tone =>
    tones[status] ?? 'neutral';
