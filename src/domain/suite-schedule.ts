import { z } from 'zod';

/**
 * QA suites on a schedule (decisions 053 and 057): the API's shapes. A schedule runs a stored
 * suite at each occurrence of a cron expression in a time zone, on a connection, as its owner;
 * those it names are told what newly fails and what was fixed.
 */

/** What a run missed while the portal was down becomes: one run at start, or nothing. */
export const missedPolicies = ['run-once', 'skip'] as const;
export type MissedPolicy = (typeof missedPolicies)[number];

export const missedPolicyLabels: Record<MissedPolicy, string> = {
  'run-once': 'Run once when the portal is back',
  skip: 'Skip it',
};

const notifySchema = z
  .array(
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.email('Write an e-mail address, like name@example.com.')),
  )
  .max(50, 'Notify at most 50 people; a team address on one account works too.');

/** POST /api/suites/:id/schedules: a new schedule. */
export const newScheduleSchema = z
  .object({
    cron: z
      .string()
      .min(1, 'Write when it runs, e.g. "0 6 * * 1-5" for weekdays at 06:00.')
      .max(200),
    timeZone: z.string().min(1, 'Name a time zone, e.g. Europe/London.').max(100),
    connection: z.string().min(1, 'Name the VMS connection it runs on.').max(100),
    /** The client org its cases are sent for; absent: the owner's first on the connection. */
    clientOrgId: z.number().int().positive().optional(),
    /** Who is told of each run, by their sign-in e-mail. */
    notify: notifySchema.default([]),
    missed: z.enum(missedPolicies, {
      error: `missed must be one of ${missedPolicies.join(', ')}.`,
    }),
  })
  .strict();
export type NewSchedule = z.infer<typeof newScheduleSchema>;

/** PUT /api/suites/:id/schedules/:scheduleId: any of these; `enabled` stops or resumes it. */
export const scheduleChangeSchema = newScheduleSchema
  .partial()
  .extend({ enabled: z.boolean().optional() })
  .strict();
export type ScheduleChange = z.infer<typeof scheduleChangeSchema>;

const actorSchema = z.object({ userId: z.string(), email: z.string() }).nullable();

export const suiteScheduleSchema = z.object({
  id: z.number().int(),
  suiteId: z.number().int(),
  cron: z.string(),
  timeZone: z.string(),
  connection: z.string(),
  clientOrgId: z.number().int().nullable(),
  /** Whose grants its runs use: whoever added it or last set it going. */
  owner: actorSchema,
  notify: z.array(z.string()),
  missed: z.enum(missedPolicies),
  enabled: z.boolean(),
  /** Why it stopped (its owner disabled, a grant lost), or null when it runs or was stopped by hand. */
  stoppedReason: z.string().nullable(),
  /** The next few occurrences (ISO), none when stopped. */
  next: z.array(z.string()),
  /** The last occurrence run or skipped (ISO), and the run it made. */
  lastOccurrence: z.string().nullable(),
  lastRunId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type SuiteSchedule = z.infer<typeof suiteScheduleSchema>;

export const suiteScheduleListSchema = z.object({ schedules: z.array(suiteScheduleSchema) });

/** GET /api/suite-schedules/preview: the next occurrences of a rule as typed. */
export const schedulePreviewSchema = z.object({ next: z.array(z.string()) });
