import { z } from 'zod';
import type { LoadedRecord } from '@/domain';
import { loadedRecordSchema } from '@/domain';
import { payloadKinds } from '@/domain';
import { countsText } from '@/domain/batch-results';
import type { WireItem } from './batch-kind';
import type { ResendOf } from './tray-state';
import { resendOfSchema } from './tray-state';

/**
 * The submissions history: every batch the VMS accepted (202 with a batch id), newest first,
 * with the items as sent so that Fix can load one back into its form. A send that failed is not
 * a submission: its items are still in the tray, with the failure shown there.
 */
export interface Submission {
  /** The VMS's batch id (unique). */
  batchId: string;
  kind: (typeof payloadKinds)[number];
  clientOrgId: number;
  vendorOrgId: number;
  sentAt: string;
  itemCount: number;
  items: WireItem[];
  /** Per item, the record an Amend was loaded from (null for other items), for Fix. */
  loaded?: (LoadedRecord | null)[] | undefined;
  /** Status counts once no row is Pending (e.g. { Success: 2, Error: 1 }); null until then. */
  finalCounts: Record<string, number> | null;
  /** True when the items were dropped to make room in browser storage. */
  itemsDropped?: boolean | undefined;
  /** Per item, the failed row of an earlier batch it sends again (null for other items). */
  resendOf?: (ResendOf | null)[] | undefined;
  /** Sent without the portal's local checks (a QA probe). */
  unchecked?: boolean | undefined;
  /** The VMS connection it was sent to; absent for batches sent before there were several. */
  connection?: string | undefined;
}

export const submissionSchema: z.ZodType<Submission> = z.object({
  batchId: z.string().min(1),
  kind: z.enum(payloadKinds),
  clientOrgId: z.number().int(),
  vendorOrgId: z.number().int(),
  sentAt: z.string(),
  itemCount: z.number().int().nonnegative(),
  items: z.array(z.record(z.string(), z.string())),
  loaded: z.array(loadedRecordSchema.nullable()).optional(),
  finalCounts: z.record(z.string(), z.number()).nullable(),
  itemsDropped: z.boolean().optional(),
  resendOf: z.array(resendOfSchema.nullable()).optional(),
  unchecked: z.boolean().optional(),
  connection: z.string().optional(),
});

/**
 * The rows of batch `batchId` that were sent again, each with the batch that did it (the newest,
 * when a row was resent more than once). `list` is newest first, as stored.
 */
export function resentRows(list: readonly Submission[], batchId: string): Map<number, string> {
  const rows = new Map<number, string>();
  for (const submission of list) {
    for (const resend of submission.resendOf ?? []) {
      if (resend?.batchId === batchId && !rows.has(resend.row))
        rows.set(resend.row, submission.batchId);
    }
  }
  return rows;
}

export const submissionsSchema = z.array(submissionSchema);

/** Most batches kept; the oldest go first. */
export const MAX_SUBMISSIONS = 200;

export function addSubmission(list: readonly Submission[], submission: Submission): Submission[] {
  const rest = list.filter((other) => other.batchId !== submission.batchId);
  return [submission, ...rest].slice(0, MAX_SUBMISSIONS);
}

export function recordOutcome(
  list: readonly Submission[],
  batchId: string,
  counts: Record<string, number>,
): Submission[] {
  return list.map((submission) =>
    submission.batchId === batchId ? { ...submission, finalCounts: counts } : submission,
  );
}

/** "2 Success, 1 Error", or what is known before the results are in. */
export function describeOutcome(submission: Submission): string {
  if (!submission.finalCounts) return 'Accepted; results pending';
  return countsText(submission.finalCounts);
}

/**
 * When browser storage is full: the oldest half of the batches lose their stored items (their
 * records stay, but Fix can no longer reload them). Returns null when nothing is left to drop.
 */
export function shedOldItems(list: readonly Submission[]): Submission[] | null {
  const withItems = list
    .map((submission, index) => ({ submission, index }))
    .filter(({ submission }) => submission.items.length > 0);
  if (withItems.length === 0) return null;
  const drop = new Set(withItems.slice(Math.floor(withItems.length / 2)).map(({ index }) => index));
  if (drop.size === 0) return null;
  return list.map((submission, index) =>
    drop.has(index)
      ? { ...submission, items: [], loaded: undefined, itemsDropped: true }
      : submission,
  );
}
