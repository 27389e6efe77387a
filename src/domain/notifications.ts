import { z } from 'zod';
import { countStatuses, countsText, type BatchResultRow } from './batch-results';

/**
 * The portal's notifications in the app (the bell): what each says, and the read API's shapes.
 * A notification names counts, ids and a link, never a candidate's data, so the same words can
 * go by e-mail and webhook.
 */
export const notificationKinds = ['batch.settled', 'batch.gave_up', 'suite.scheduled_run'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

/** How long a notification is kept, read or not. */
export const notificationKeepDays = 90;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(notificationKinds),
  title: z.string(),
  /** A path in the portal: the page that shows what the notification is about. */
  link: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type PortalNotification = z.infer<typeof notificationSchema>;

/** GET /api/notifications: the newest first, and how many of all are unread. */
export const notificationListSchema = z.object({
  unread: z.number().int(),
  items: z.array(notificationSchema),
});

/** POST /api/notifications/read: some by id, or all of the user's. */
export const markReadSchema = z.union(
  [
    z
      .object({
        ids: z
          .array(z.number().int().positive())
          .min(1, 'Name at least one notification to mark read, or send {"all": true}.')
          .max(500, 'Mark at most 500 notifications read at once, or send {"all": true}.'),
      })
      .strict(),
    z.object({ all: z.literal(true) }).strict(),
  ],
  { error: 'Say which notifications to mark read: {"ids": [1, 2]} (up to 500) or {"all": true}.' },
);

/** Where a batch's results are read: Submissions, opened on that batch. */
export function batchLink(batchId: string): string {
  return `/submissions?batch=${encodeURIComponent(batchId)}`;
}

/** "Batch rb_7f3 settled: 48 Success, 2 Error"; a candidates' batch says so. */
export function settledTitle(
  operation: 'requisitionimport' | 'candidates',
  batchId: string,
  rows: readonly Pick<BatchResultRow, 'status'>[],
): string {
  return `${batchNoun(operation)} ${batchId} settled: ${countsText(countStatuses(rows))}`;
}

/** "Batch rb_7f3: still pending at the VMS after 72 h". */
export function gaveUpTitle(
  operation: 'requisitionimport' | 'candidates',
  batchId: string,
  hours: number,
): string {
  return `${batchNoun(operation)} ${batchId}: still pending at the VMS after ${hours} h`;
}

function batchNoun(operation: 'requisitionimport' | 'candidates'): string {
  return operation === 'candidates' ? 'Candidate batch' : 'Batch';
}

/** Names in a title: the first few, then how many more. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/**
 * "Suite 'UAT regression' on UAT: 2 newly failing: Create req, Candidate 2; 1 fixed: Old bug",
 * against the schedule's run before; "no change, 11 of 12 passing" when nothing moved.
 */
export function scheduledRunTitle(run: {
  suiteName: string;
  connectionLabel: string;
  newlyFailing: readonly string[];
  fixed: readonly string[];
  passed: number;
  total: number;
  /** The run stopped before every case ran (the portal stopped, a failure inside it). */
  interrupted: boolean;
}): string {
  const head = `Suite '${run.suiteName}' on ${run.connectionLabel}`;
  const changes = [
    run.newlyFailing.length > 0
      ? `${run.newlyFailing.length} newly failing: ${someNames(run.newlyFailing)}`
      : null,
    run.fixed.length > 0 ? `${run.fixed.length} fixed: ${someNames(run.fixed)}` : null,
  ].filter((part) => part !== null);
  const counts = `${run.passed} of ${run.total} passing`;
  if (run.interrupted) return `${head}: interrupted, ${counts}`;
  return changes.length > 0 ? `${head}: ${changes.join('; ')}` : `${head}: no change, ${counts}`;
}
