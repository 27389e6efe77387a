import { randomBytes } from 'node:crypto';
import { requisitionResultStatuses } from '@/domain/batch-results';
import { writeDate } from '@/domain/date-patterns';
import { payloadKindOf } from '@/domain/payload-kind';
import { blankRequisitionWire } from '@/domain/requisition-wire';
import { answerFromVms, readPointer, vmsCallPath, type VmsProfile } from '@/domain/vms-profile';
import { networkFailure, type ProbeAnswer, type ProbeClient } from './probe-client';
import {
  fail,
  isRecord,
  looksLikeHtml,
  ok,
  orgQuery,
  parseJson,
  pass,
  said,
  undecided,
  type Outcome,
} from './probe-outcome';
import type { DoctorTarget } from './target';

/**
 * The doctor's one POST, sent only when asked: a test requisition, and beside it a row the VMS
 * must refuse (no job title), which creates nothing. Their results read back prove the results
 * keys a GET cannot: the status words (a success and an error), the row's number or order, the
 * message field (only the refused row has one), the created-id field (only the other) and the
 * reference each row echoes.
 */

/**
 * The doctor's test requisition for `orgId`: clearly marked, with a fresh reference, starting on
 * the 25th of next month (a day no month can be, so the start date read back settles whether the
 * VMS writes dates day first), its dates written as `profile.dates.outbound` says.
 */
function testRequisition(
  profile: VmsProfile,
  orgId: number,
  now: number,
): { reference: string; requisition: Record<string, string> } {
  const reference = `DOCTOR-${randomBytes(4).toString('hex').toUpperCase()}`;
  const today = new Date(now);
  const starts = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 25));
  const startdate = writeDate(starts.toISOString().slice(0, 10), profile.dates.outbound) ?? '';
  const requisition = {
    ...blankRequisitionWire(),
    requesttype: 'I',
    orgid: String(orgId),
    reqclassid: '101',
    titlerole: 'CONNECTION CHECK - test requisition, do not fill',
    noofopenings: '1',
    clientinternalreq: reference,
    hoursunitsperday: '8',
    daysperweek: '5',
    engagementtype: '1',
    shortdescription: 'Sent by the portal connection check (npm run doctor); not a real opening.',
    reqownerid: 'mreyes',
    startdate,
  };
  return { reference, requisition };
}

/**
 * The doctor's test batch for `orgId`: the test requisition, and beside it the same row without a
 * job title, which the VMS must refuse and which creates nothing (its reference ends `-R`).
 */
export function testRequisitionBatch(
  profile: VmsProfile,
  orgId: number,
  now: number,
): { references: [string, string]; rows: [Record<string, string>, Record<string, string>] } {
  const { reference, requisition } = testRequisition(profile, orgId, now);
  const refused = `${reference}-R`;
  return {
    references: [reference, refused],
    rows: [requisition, { ...requisition, clientinternalreq: refused, titlerole: '' }],
  };
}

export interface SendTestContext {
  target: DoctorTarget;
  client: ProbeClient;
  now: () => number;
}

export interface SendTestTiming {
  /** How long to wait for the rows to settle, and how often to look. */
  waitMs?: number | undefined;
  pollMs?: number | undefined;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Row = Record<string, string | number>;

/** What the two rows read back prove, or the first key they prove wrong. */
function judgeRows(
  profile: VmsProfile,
  rows: Row[],
  raw: Record<string, unknown>[],
  sent: { reference: string; refused: string },
): { wrong: { finding: string; fix: string } | null; evidence: string[] } {
  const names = payloadKindOf('requisition').resultFields;
  const shape = profile.results.requisition;
  const text = (row: Row | undefined, field: string) => String(row?.[field] ?? '');
  const evidence = rows.map(
    (row) =>
      `Row ${text(row, names.row)}: ${shape.reference} "${text(row, names.reference)}", ${shape.status} read as ${text(row, names.status)}, ${shape.createdId} "${text(row, names.createdId)}", ${shape.message} "${text(row, names.message)}"`,
  );
  const wrong = (finding: string, fix: string) => ({ wrong: { finding, fix }, evidence });
  if (rows.length !== 2) {
    return wrong(
      `The test batch of 2 rows read back as ${rows.length} at results.requisition.rows.`,
      'Check results.requisition.rows in the profile.',
    );
  }
  const known: readonly string[] = requisitionResultStatuses;
  const unknownWord = rows
    .map((row) => text(row, names.status))
    .find((word) => !known.includes(word));
  if (unknownWord !== undefined) {
    return wrong(
      `A row's status "${unknownWord}" is none of the words results.requisition.statuses maps.`,
      `Add "${unknownWord}" to results.requisition.statuses, mapped onto ${requisitionResultStatuses.join(', ')}.`,
    );
  }
  const mine = rows.find((row) => text(row, names.reference) === sent.reference);
  const refused = rows.find((row) => text(row, names.reference) === sent.refused);
  if (!mine || !refused) {
    return wrong(
      `The rows do not echo the client internal reqs sent (${sent.reference}, ${sent.refused}) at "${shape.reference}".`,
      "Set results.requisition.reference to the row's field holding the client internal req.",
    );
  }
  // A row number the dialect could not read falls back to the row's place: not proof of the key.
  const unnumbered =
    shape.rowNumber !== null &&
    raw.some((row) => !/^[1-9]\d*$/.test(String(row[shape.rowNumber ?? ''] ?? '')));
  if (unnumbered || text(mine, names.row) !== '1' || text(refused, names.row) !== '2') {
    return wrong(
      unnumbered
        ? `The rows have no 1-based position at "${shape.rowNumber ?? ''}".`
        : `The rows' order reads wrong: the first row sent is row ${text(mine, names.row)}, the second row ${text(refused, names.row)}.`,
      shape.rowNumber === null
        ? "Set results.requisition.rowNumber to the row's field holding its 1-based position: this VMS does not answer in the order sent."
        : `Check results.requisition.rowNumber ("${shape.rowNumber}"): the row's field holding its 1-based position.`,
    );
  }
  if (text(refused, names.status) !== 'Error') {
    return wrong(
      `The row without a job title (${sent.refused}) reads as ${text(refused, names.status)}, not Error${text(refused, names.createdId) === '' ? '' : `, with ${shape.createdId} "${text(refused, names.createdId)}": close it in the VMS`}.`,
      "Check results.requisition.statuses: the VMS's word for a refused row must map onto Error.",
    );
  }
  if (text(refused, names.message) === '') {
    return wrong(
      `The refused row (${sent.refused}) has no message at "${shape.message}".`,
      "Set results.requisition.message to the row's field holding the VMS's message.",
    );
  }
  if (text(mine, names.status) === 'Success' && text(mine, names.createdId) === '') {
    return wrong(
      `The test requisition (${sent.reference}) succeeded but has no id at "${shape.createdId}".`,
      "Set results.requisition.createdId to the row's field holding the Req ID the VMS gave it.",
    );
  }
  return { wrong: null, evidence };
}

export async function probeSendTest(
  context: SendTestContext,
  timing: SendTestTiming = {},
): Promise<Outcome> {
  const { target, client } = context;
  const { profile } = target;
  const orgId = target.clientOrgIds[0] ?? 0;
  const batch = testRequisitionBatch(profile, orgId, context.now());
  const [reference, refusedReference] = batch.references;
  const body = Buffer.from(JSON.stringify(batch.rows));
  const path = vmsCallPath(profile, 'requisitionimport', orgQuery(target, orgId));
  const sent = `the test requisition ${reference} (and ${refusedReference}, without a job title)`;
  let answer: ProbeAnswer;
  try {
    // Once: a POST whose answer was lost may still have arrived, so it is never sent again.
    answer = await client.call('POST', path, body);
  } catch (error) {
    return undecided(
      `The test batch was sent, but no answer came (${networkFailure(error, target).finding}); it may have arrived.`,
      `Look for ${reference} in the VMS before sending another.`,
    );
  }
  if (!ok(answer)) {
    if (answer.status === 404 || answer.status === 405 || looksLikeHtml(answer)) {
      return fail(
        `The VMS refused ${sent}: status ${answer.status}, ${said(profile, answer)}.`,
        "Check paths.requisitionimport in the profile and the VMS's message.",
      );
    }
    // A VMS may refuse a whole batch for one bad row: the path is right, the rows' keys unproven.
    return undecided(
      `The VMS refused the whole test batch, ${sent}: status ${answer.status}, ${said(profile, answer)}. It may refuse a batch for one bad row; the results keys are not proved.`,
      "If the message is about the row without a job title, the path and signature are right; check the results keys against the VMS's reference.",
    );
  }
  const accepted = answerFromVms(profile, 'requisitionimport', answer.status, answer.text);
  if (typeof accepted !== 'string') {
    return fail(
      `The VMS accepted ${sent} (status ${answer.status}) but the portal cannot read its answer: ${accepted.unreadable}.`,
      'Set accepted.batchId in the profile to where the VMS puts the batch id.',
    );
  }
  const batchId = (JSON.parse(accepted) as { batchid: string }).batchid;
  const note = profile.accepted.statuses.includes(answer.status)
    ? ''
    : ` (status ${answer.status}, not one of accepted.statuses: add it)`;
  const posted = `POST ${path}: status ${answer.status}, batch ${batchId}`;
  const deadline = context.now() + (timing.waitMs ?? 30_000);
  const resultsPath = vmsCallPath(
    profile,
    'requisitionresults',
    orgQuery(target, orgId, { batchid: batchId }),
  );
  for (;;) {
    const results = await client.call('GET', resultsPath);
    const read = answerFromVms(profile, 'requisitionresults', results.status, results.text, {
      batchId,
    });
    if (typeof read !== 'string' || !ok(results)) {
      return fail(
        `The test requisition ${reference} was accepted as batch ${batchId}${note}, but its results do not read: ${typeof read === 'string' ? `status ${results.status}` : read.unreadable}.`,
        'Check paths.requisitionresults and results.requisition in the profile.',
        [posted],
      );
    }
    const rows = JSON.parse(read) as Row[];
    const settled = rows.length >= 2 && rows.every((row) => row['Status'] !== 'Pending');
    if (settled) {
      const rawRows = readPointer(parseJson(results.text), profile.results.requisition.rows);
      const raw = Array.isArray(rawRows) ? rawRows.filter(isRecord) : [];
      const { wrong, evidence } = judgeRows(profile, rows, raw, {
        reference,
        refused: refusedReference,
      });
      const seen = [posted, `GET ${resultsPath}`, ...evidence];
      if (wrong) return fail(wrong.finding, wrong.fix, seen);
      const mine = rows.find((row) => String(row['ClientInternalReq']) === reference);
      if (mine?.['Status'] === 'Success') {
        return pass(
          `The test requisition ${reference} was accepted as batch ${batchId}${note} and created as Req_Id ${String(mine['Req_Id'])}; close it in the VMS. Its row and the refused one read back as the profile says: status words, row order, message, created id and reference.`,
          seen,
        );
      }
      return undecided(
        `The test requisition ${reference} went through (batch ${batchId}${note}) and its results read, but the VMS refused the requisition itself (${String(mine?.['Status'])}: ${String(mine?.['ErrorMessage'] ?? '')}).`,
        "The profile's accepted and results keys fit; the test requisition's values (org, class, owner) are the sandbox's, which this VMS need not know.",
        seen,
      );
    }
    if (context.now() >= deadline) {
      return undecided(
        `The test requisition ${reference} was accepted as batch ${batchId}${note}, but its rows are still ${rows.length < 2 ? `${rows.length} of 2` : 'Pending'}.`,
        'Check its results later in the portal (batch id above).',
        [posted],
      );
    }
    await wait(timing.pollMs ?? 1000);
  }
}
