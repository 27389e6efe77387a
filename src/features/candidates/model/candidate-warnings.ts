import { whyNotSubmittable } from '@/domain';
import { billRateNote } from './bill-rate';
import type { TargetRequisition } from './target-requisition';

/**
 * What the VMS would likely refuse, or what a recruiter should know, but that the portal does not
 * block: the requisition's state can change after the list was read, and the history in this
 * browser is not the whole truth. Each warning must be acknowledged before the candidate is added
 * to the batch (docs/decisions/030-candidate-workspace.md). Pure, so the rules are unit-tested.
 */
export type CandidateWarningId =
  | 'status'
  | 'no-openings'
  | 'submittals-closed'
  | 'bill-rate'
  | 'already-submitted'
  | 'already-in-batch';

export interface CandidateWarning {
  id: CandidateWarningId;
  message: string;
}

/** A candidate sent earlier (an accepted batch) or waiting in the tray. */
export interface EarlierCandidate {
  requirementid: string;
  candemail: string;
  /** "batch cb_12 of 21 Nov 2026, 14:05", "item 2 of the batch". */
  where: string;
}

export interface WarningInput {
  candidate: { requirementid: string; candemail: string; billrate: string };
  /** null when the requisition is not known to the portal (a Req ID typed by hand). */
  requisition: TargetRequisition | null;
  /** Today's UTC date, ISO (the sandbox and the VMS compare dates in UTC). */
  today: string;
  submitted: readonly EarlierCandidate[];
  inTray: readonly EarlierCandidate[];
}

const sameCandidate = (a: WarningInput['candidate'], b: EarlierCandidate) =>
  a.requirementid.trim() === b.requirementid.trim() &&
  a.candemail.trim().toLowerCase() === b.candemail.trim().toLowerCase();

export function candidateWarnings(input: WarningInput): CandidateWarning[] {
  const { candidate, requisition, today } = input;
  const warnings: CandidateWarning[] = [];
  if (requisition) {
    const name = `Requisition ${requisition.reqId}`;
    // The same rule as the list's "Only submittable" and its "Submit candidate" (domain).
    for (const { id } of whyNotSubmittable(requisition, today)) {
      switch (id) {
        case 'status':
          warnings.push({
            id,
            message: `${name} is ${requisition.statusLabel}: the VMS accepts candidates only for Open or Interview occurring requisitions and will likely answer Error. Choose another requisition, or go on if you know its status has changed.`,
          });
          break;
        case 'no-openings':
          warnings.push({
            id,
            message: `${name} has no openings left: the client is unlikely to consider more candidates. Choose another requisition, or go on if you know openings were added.`,
          });
          break;
        case 'submittals-closed':
          warnings.push({
            id,
            message: `${name} took no new submittals after ${requisition.noNewSubmittalsAfter}: the VMS will likely answer Error. Ask the client to extend the date, or choose another requisition.`,
          });
          break;
      }
    }
    // The same rule as the note beside the bill-rate field (bill-rate.ts).
    if (billRateNote(requisition, candidate.billrate)?.warning) {
      warnings.push({
        id: 'bill-rate',
        message: `The bill rate ${candidate.billrate.trim()} is above the hourly high of ${requisition.hourlyHigh}, and ${name} does not allow candidates above it: the VMS will likely answer Error. Lower the bill rate to ${requisition.hourlyHigh} or less.`,
      });
    }
  }
  if (candidate.candemail.trim() !== '') {
    const email = candidate.candemail.trim();
    const sent = input.submitted.find((earlier) => sameCandidate(candidate, earlier));
    if (sent) {
      warnings.push({
        id: 'already-submitted',
        message: `${email} was already sent to requisition ${candidate.requirementid.trim()} (${sent.where}). The VMS refuses the same e-mail twice to one requisition unless the first ended in Error; check its result under Submissions.`,
      });
    }
    const queued = input.inTray.find((earlier) => sameCandidate(candidate, earlier));
    if (queued) {
      warnings.push({
        id: 'already-in-batch',
        message: `${email} is already in the batch for requisition ${candidate.requirementid.trim()} (${queued.where}): the VMS would refuse the second one. Edit or remove one of them.`,
      });
    }
  }
  return warnings;
}

/** The acknowledgement covers exactly these warnings: a new one needs a new tick. */
export function warningsKey(warnings: readonly CandidateWarning[]): string {
  return warnings.map((warning) => warning.id).join('|');
}
