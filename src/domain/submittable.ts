import type { DateFormat } from './catalog-types';
import { wireDateToIso } from './dates';
import { optionLabel, reqStatuses } from './enumerations';
import type { RequisitionRecord } from './requisition-record';
import { submittableStatuses } from './vms-contract';

/** What decides whether a requisition takes candidates, as the list and the picker know it. */
export interface SubmittableFacts {
  /** reqstatus code. */
  status: string;
  /** noofopenings as the VMS gives it; '' when unknown. */
  openings: string;
  /** nonewsubmittalsafter as an ISO date (YYYY-MM-DD); '' when none. */
  noNewSubmittalsAfter: string;
}

export type NotSubmittableId = 'status' | 'no-openings' | 'submittals-closed';

export interface NotSubmittable {
  id: NotSubmittableId;
  /** Short, for a list row or a disabled button: "Filled: only Open or … take candidates". */
  reason: string;
}

/**
 * Why a requisition takes no candidates now ([] when it does): its status is not Open or
 * Interview occurring, it has no openings left, or its "no new submittals after" date has passed
 * (`today` is an ISO date, UTC as the VMS compares). The list's "Only submittable", the
 * candidate picker, "Submit candidate" and the candidate form's warnings all ask this.
 */
export function whyNotSubmittable(facts: SubmittableFacts, today: string): NotSubmittable[] {
  const reasons: NotSubmittable[] = [];
  const status = facts.status.trim();
  if (status !== '' && !submittableStatuses.has(status)) {
    const label = optionLabel(reqStatuses, status) ?? `status ${status}`;
    reasons.push({
      id: 'status',
      reason: `${label}: only Open or Interview occurring requisitions take candidates`,
    });
  }
  const openings = facts.openings.trim();
  if (/^\d+$/.test(openings) && Number(openings) === 0) {
    reasons.push({ id: 'no-openings', reason: 'No openings left' });
  }
  if (facts.noNewSubmittalsAfter !== '' && facts.noNewSubmittalsAfter < today) {
    reasons.push({
      id: 'submittals-closed',
      reason: `Took no new submittals after ${facts.noNewSubmittalsAfter}`,
    });
  }
  return reasons;
}

/** The reasons as one phrase, for a list row, a disabled button or a notice. */
export const notSubmittableText = (reasons: readonly NotSubmittable[]) =>
  reasons.map((entry) => entry.reason).join('; ');

/** whyNotSubmittable for a requisition of the list (its dates in the VMS's format). */
export function recordNotSubmittable(
  record: RequisitionRecord,
  dateFormat: DateFormat,
  today: string,
): NotSubmittable[] {
  const lastDay = record.fields.nonewsubmittalsafter.trim();
  return whyNotSubmittable(
    {
      status: record.fields.reqstatus,
      openings: record.fields.noofopenings,
      noNewSubmittalsAfter: lastDay === '' ? '' : wireDateToIso(lastDay, dateFormat),
    },
    today,
  );
}

/** Today's date as the VMS compares dates: ISO, UTC. */
export const todayIso = (now = new Date()) => now.toISOString().slice(0, 10);
