import { Cron } from 'croner';

/**
 * When a scheduled suite runs (decision 053): a five-field cron expression read in a time zone,
 * "0 6 * * 1-5" in Europe/London being weekdays at 06:00 London time, summer or winter. croner
 * reads the expression and computes the occurrences, daylight saving included.
 */
export interface ScheduleRule {
  cron: string;
  timeZone: string;
}

const example =
  'write five fields (minute hour day-of-month month weekday), e.g. "0 6 * * 1-5" for weekdays at 06:00';

function cronOf(rule: ScheduleRule): Cron {
  // Five fields only: a suite runs at most once a minute, so a seconds field is refused, not guessed.
  return new Cron(rule.cron, { timezone: rule.timeZone, paused: true, mode: '5-part' });
}

function timeZoneProblem(timeZone: string): string | null {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return null;
  } catch {
    return `"${timeZone}" is not a time zone; use a name such as Europe/London, America/New_York or UTC.`;
  }
}

/**
 * A schedule as typed, checked: the time zone exists, the expression reads, and it comes round
 * again after `now`. With the next occurrence, for the page to show; else the problem, in words
 * that say how to write it.
 */
export function checkScheduleRule(
  input: ScheduleRule,
  now: Date,
): { rule: ScheduleRule; next: Date } | { problem: string; field: keyof ScheduleRule } {
  const rule = { cron: input.cron.trim().replace(/\s+/g, ' '), timeZone: input.timeZone.trim() };
  const zone = timeZoneProblem(rule.timeZone);
  if (zone !== null) return { problem: zone, field: 'timeZone' };
  let next: Date | null;
  try {
    next = cronOf(rule).nextRun(now);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).replace(
      /^CronPattern:\s*/,
      '',
    );
    return {
      problem: `The schedule "${rule.cron}" cannot be read (${reason}); ${example}.`,
      field: 'cron',
    };
  }
  if (next === null) {
    return {
      problem: `The schedule "${rule.cron}" never comes round (no such date); ${example}.`,
      field: 'cron',
    };
  }
  return { rule, next };
}

/** The first occurrence after `after`, or null if there is none. */
export function nextOccurrence(rule: ScheduleRule, after: Date): Date | null {
  return cronOf(rule).nextRun(after);
}

/** The next `count` occurrences after `after`: what the page shows of a schedule. */
export function nextOccurrences(rule: ScheduleRule, after: Date, count: number): Date[] {
  return cronOf(rule).nextRuns(count, after);
}

/**
 * The occurrence a portal that was down missed: the latest one after `lastDue` (the occurrence last
 * run or skipped) and at or before `now`, or null when none was missed. However many were missed,
 * at most this one is run: a suite run on start-up says how things are now, and ten runs in a row
 * of the same suite would say it ten times.
 */
export function missedOccurrence(rule: ScheduleRule, lastDue: Date, now: Date): Date | null {
  // croner counts a run in the reference's own second as before it; a second later, the run at
  // `now` is counted, and one just after `now` is skipped by the second of the two.
  const latest = cronOf(rule)
    .previousRuns(2, new Date(now.getTime() + 1000))
    .find((run) => run.getTime() <= now.getTime());
  return latest !== undefined && latest.getTime() > lastDue.getTime() ? latest : null;
}
