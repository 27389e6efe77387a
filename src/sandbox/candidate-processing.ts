import type { CandidateWire, FieldIssue } from '@/domain';
import {
  MAX_SKILL_RESPONSES,
  answerKey,
  candidateWireKeys,
  formatWireDate,
  optionLabel,
  reqStatuses,
  skillResponseKey,
  validateCandidateItem,
} from '@/domain';
import { submittableStatuses } from '@/domain/vms-contract';
import type { ItemContext } from './item-context';
import { errorOutcome, postedString } from './item-context';
import { checkChoice, issuesMessage } from './reference-rules';
import type { StoredRequisition } from './requisition-record';
import { questionNumbers, skillNumbers } from './requisition-record';
import type { ItemOutcome } from './store';

/** Candidates go only to requisitions in these states (decision 000, "Candidate"). */

function lastOf(numbers: readonly number[]): number {
  return numbers.length === 0 ? 0 : Math.max(...numbers);
}

/**
 * One candidate item. The target requisition is looked up first, because the local rules need
 * to know how many skills and questions it has (a response to skill 7 of a 3-skill requisition is
 * a local error); then the server-side rules; then the candidate is stored as New or Incomplete.
 */
export function processCandidateItem(payload: unknown, ctx: ItemContext): ItemOutcome {
  const { client, store } = ctx;
  const posted = postedString(payload, 'vendorcandidateid');
  const requirementId = postedString(payload, 'requirementid').trim();
  const requisition = /^\d+$/.test(requirementId)
    ? store.requisitionById(client.orgId, Number(requirementId))
    : undefined;

  const local = validateCandidateItem(payload, {
    dateFormat: ctx.dateFormat,
    ...(requisition && {
      requisition: {
        skillCount: lastOf(skillNumbers(requisition.record)),
        questionCount: lastOf(questionNumbers(requisition.record)),
      },
    }),
  });
  if (!local.ok) return errorOutcome(issuesMessage(local.issues), posted);
  const candidate = trimmed(local.value);
  const reference = candidate.vendorcandidateid;
  if (!requisition) {
    return errorOutcome(
      `requirementid: ${candidate.requirementid} is not the Req ID of a requisition of client ` +
        `org ${client.orgId}; use a Req_Id from GET /requisitions`,
      reference,
    );
  }

  const issues = requisitionAcceptsSubmittals(requisition, ctx);
  const billRate = candidate.billrate;
  const high = requisition.record.billrangefrom;
  const maximumBillRate = requisition.record.maximumbillrate;
  // maximumbillrate 0 = "No": candidates may not be submitted above the maximum (the hourly high).
  // Blank means the requisition is not configured for it, so there is no limit, unless the
  // sandbox is set to read blank as 0 (SANDBOX_BLANK_MAXIMUM_BILL_RATE=hourly-high).
  const limited =
    maximumBillRate === ''
      ? ctx.blankMaximumBillRate === 'hourly-high'
      : Number(maximumBillRate) === 0;
  if (limited && billRate !== '' && high !== '') {
    if (Number(billRate) > Number(high)) {
      issues.push({
        field: 'billrate',
        message:
          `${billRate} is above the hourly high of requisition ${requisition.reqId} (${high}), which ` +
          `does not accept candidates above its maximum bill rate${maximumBillRate === '' ? ' (none set, read as no)' : ''}; offer ${high} or less`,
      });
    }
  }
  for (let n = 1; n <= MAX_SKILL_RESPONSES; n += 1) {
    const key = skillResponseKey('expertiserating', n);
    checkChoice(client, 'expertiserating', key, candidate[key], issues);
  }
  const email = candidate.candemail;
  const previous = store.submittedCandidateId(requisition.reqId, email);
  if (previous !== undefined) {
    issues.push({
      field: 'candemail',
      message:
        `${email} has already been submitted to requisition ${requisition.reqId} (Cand_Id ` +
        `${previous}); a candidate is submitted once per requisition`,
    });
  }
  if (issues.length > 0) return errorOutcome(issuesMessage(issues), reference);

  const blank = [
    ...questionNumbers(requisition.record)
      .map(answerKey)
      .filter((key) => candidate[key] === ''),
    ...skillNumbers(requisition.record)
      .map((n) => skillResponseKey('response', n))
      .filter((key) => candidate[key] === ''),
  ];
  const status = blank.length > 0 ? 'Incomplete' : 'New';
  const candId = store.insertCandidate({
    clientOrgId: client.orgId,
    vendorOrgId: ctx.vendorOrgId,
    reqId: requisition.reqId,
    email,
    status,
    createdAt: ctx.nowIso,
    record: candidate,
  });
  return {
    status,
    errorMessage:
      blank.length > 0
        ? `Submitted as Incomplete because these are blank: ${blank.join(', ')}.`
        : '',
    resultId: String(candId),
    reference,
  };
}

/** The domain reads a value of only spaces as blank; the sandbox stores it so. */
function trimmed(wire: CandidateWire): CandidateWire {
  const copy = { ...wire };
  for (const key of candidateWireKeys) copy[key] = wire[key].trim();
  return copy;
}

function requisitionAcceptsSubmittals(
  requisition: StoredRequisition,
  ctx: ItemContext,
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const status = requisition.record.reqstatus;
  if (!submittableStatuses.has(status)) {
    issues.push({
      field: 'requirementid',
      message:
        `requisition ${requisition.reqId} is ${optionLabel(reqStatuses, status) ?? 'in status'} ` +
        `(reqstatus ${status}); candidates can be submitted only while it is Open (4) or ` +
        'Interview occurring (5)',
    });
  }
  const lastDay = requisition.record.nonewsubmittalsafter;
  if (lastDay !== '' && lastDay < ctx.todayIso) {
    issues.push({
      field: 'requirementid',
      message:
        `requisition ${requisition.reqId} took no new submittals after ` +
        `${formatWireDate(lastDay, ctx.dateFormat)} (nonewsubmittalsafter); submit to an open requisition instead`,
    });
  }
  return issues;
}
