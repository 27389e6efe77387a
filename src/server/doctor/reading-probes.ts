import { randomBytes } from 'node:crypto';
import { payloadKindDescriptors, type PayloadKind } from '@/domain/payload-kind';
import { readPointer, vmsCallPath, withPage, type VmsProfile } from '@/domain/vms-profile';
import type { ProbeAnswer } from './probe-client';
import { arrayPointer, type ProbeContext as Context } from './probe-context';
import {
  fail,
  isRecord,
  looksLikeHtml,
  messageAt,
  ok,
  oneLine,
  orgQuery,
  parseJson,
  pass,
  said,
  undecided,
  type Outcome,
} from './probe-outcome';
import { checkDateTimes, checkRecordDates, fieldNameStyle, lookalikes } from './record-checks';

/*
 * The reading probes: where a list's records are and what their fields look like, where each kind's
 * results are, and how the VMS writes dates.
 */

export async function probeListRecords(context: Context): Promise<Outcome> {
  const { target, client } = context;
  const { profile } = target;
  const orgId = target.clientOrgIds[0] ?? 0;
  const path = withPage(profile, vmsCallPath(profile, 'requisitions', orgQuery(target, orgId)), 0);
  const answer = await client.call('GET', path);
  if (!ok(answer)) {
    return fail(
      `The requisitions list for client org ${orgId} answered status ${answer.status} (${said(profile, answer)}).`,
      "Check paths.requisitions and list.paging in the profile against the VMS's API reference.",
    );
  }
  const body = parseJson(answer.text);
  const records = readPointer(body, profile.list.records);
  if (!Array.isArray(records)) {
    const hint = arrayPointer(body);
    return fail(
      body === undefined
        ? `The requisitions list is not JSON (${looksLikeHtml(answer) ? 'an HTML page' : oneLine(answer.text, 80)}).`
        : `The requisitions list has no array of records at "${profile.list.records}" (list.records).`,
      hint === null
        ? 'Set list.records in the profile to where the VMS puts the records ("" when the body is the array); check paths.requisitions too.'
        : `Set list.records in the profile to "${hint}", where the answer has an array.`,
    );
  }
  const sample = records.filter(isRecord).slice(0, 50);
  if (sample.length === 0) {
    return undecided(
      `The VMS listed no requisitions for client org ${orgId}, so their field names cannot be checked (nor their dates).`,
      'Check again once the client org has a requisition (or send a test one with --send-test-requisition).',
    );
  }
  context.records = sample;
  const problems: string[] = [];
  const fixes: string[] = [];
  for (const key of ['reqId', 'created', 'updated'] as const) {
    const name = profile.list.fields[key];
    if (sample.every((record) => record[name] !== undefined)) continue;
    const seen = lookalikes(sample, key);
    problems.push(`the records have no "${name}" field (list.fields.${key})`);
    fixes.push(
      seen.length > 0
        ? `set list.fields.${key} to "${seen[0]}"`
        : `set list.fields.${key} to the records' field for it`,
    );
  }
  const style = fieldNameStyle(sample);
  if (style.seen !== null && style.seen !== profile.list.fieldNames) {
    problems.push(
      `the records name their fields in ${style.seen} style (such as "${style.example}") but list.fieldNames says ${profile.list.fieldNames}`,
    );
    fixes.push(`set list.fieldNames to "${style.seen}"`);
  }
  if (problems.length > 0) {
    return fail(
      `In the requisitions list: ${problems.join('; ')}.`,
      `In the profile, ${fixes.join(', and ')}.`,
    );
  }
  if (style.seen === null) {
    // Passing would rest on list.fieldNames as written (or its preset's default), not on the VMS.
    return undecided(
      `${sample.length} record${sample.length === 1 ? '' : 's'} at "${profile.list.records}" with ${profile.list.fields.reqId}, ${profile.list.fields.created} and ${profile.list.fields.updated}, but no field whose name shows whether the VMS names payload fields in PascalCase or payload style (list.fieldNames says ${profile.list.fieldNames}).`,
      "Check again once a listed requisition has its payload fields (TitleRole or titlerole…), or set list.fieldNames from the VMS's API reference.",
    );
  }
  return pass(
    `${sample.length} record${sample.length === 1 ? '' : 's'} at "${profile.list.records}" with ${profile.list.fields.reqId}, ${profile.list.fields.created}, ${profile.list.fields.updated} and ${style.seen} field names, as the profile says.`,
  );
}

/** Whether an answer to a results call for an unknown batch reads as "no such batch". */
function resultsVerdict(
  profile: VmsProfile,
  kind: PayloadKind,
  batchId: string,
  answer: ProbeAnswer,
): { fits: boolean; what: string } {
  const pathKey = `paths.${kind}results`;
  if (ok(answer)) {
    const rows = readPointer(parseJson(answer.text), profile.results[kind].rows);
    if (Array.isArray(rows) && rows.length === 0) {
      return {
        fits: true,
        what: `${pathKey}: no rows for an unknown batch (status ${answer.status})`,
      };
    }
    return {
      fits: false,
      what: `${pathKey}: status ${answer.status} with ${looksLikeHtml(answer) ? 'an HTML page' : `no empty array of rows at "${profile.results[kind].rows}"`} for an unknown batch`,
    };
  }
  const message = messageAt(profile, answer.text);
  const aboutBatch =
    message !== null &&
    (message.includes(batchId) ||
      (/batch/i.test(message) && !/\b(route|path|operation|endpoint|url)\b/i.test(message)));
  if (answer.status >= 400 && answer.status < 500 && aboutBatch) {
    return { fits: true, what: `${pathKey}: "unknown batch" (status ${answer.status})` };
  }
  return {
    fits: false,
    what: `${pathKey}: status ${answer.status} with ${said(profile, answer)}, not an "unknown batch" answer`,
  };
}

export async function probeResultsPaths(context: Context): Promise<Outcome> {
  const { target, client } = context;
  const { profile } = target;
  const orgId = target.clientOrgIds[0] ?? 0;
  const batchId = `doctor-${randomBytes(8).toString('hex')}`;
  const verdicts = [];
  for (const { id: kind, resultsOperation } of Object.values(payloadKindDescriptors)) {
    const path = vmsCallPath(
      profile,
      resultsOperation,
      orgQuery(target, orgId, { batchid: batchId }),
    );
    verdicts.push({
      kind,
      ...resultsVerdict(profile, kind, batchId, await client.call('GET', path)),
    });
  }
  const wrong = verdicts.filter((verdict) => !verdict.fits);
  if (wrong.length === 0) {
    return pass(`Both results paths know batches: ${verdicts.map((v) => v.what).join('; ')}.`);
  }
  return fail(
    `${wrong.map((v) => v.what).join('; ')}: the path is probably wrong.`,
    `Set ${wrong.map((v) => `paths.${v.kind}results`).join(' and ')} in the profile to where the VMS answers a batch's results (with {batchid} where the batch id goes); if the path is right, check errors.message.`,
  );
}

export async function probeDates(context: Context): Promise<Outcome> {
  const { profile } = context.target;
  const records = context.records ?? [];
  const dateTimes = checkDateTimes(profile, records);
  const dates = checkRecordDates(profile, records);
  const problems: string[] = [];
  const fixes: string[] = [];
  for (const [finding, key, configured, what] of [
    [dateTimes, 'dates.dateTimes', profile.dates.dateTimes, 'created/updated date-times'],
    [dates, 'dates.records', profile.dates.records, 'DATE fields (StartDate…)'],
  ] as const) {
    if (finding.fits) continue;
    problems.push(
      `the records' ${what} such as "${finding.misfit}" do not read as ${configured} (${key})`,
    );
    fixes.push(
      finding.fitting.length > 0
        ? `set ${key} to "${finding.fitting[0]}"${finding.fitting.length > 1 ? ` (${finding.fitting.slice(1).join(', ')} read them too: pick the VMS's documented one)` : ''}`
        : `no format the portal knows reads "${finding.misfit}": ask the VMS how it writes them`,
    );
  }
  if (problems.length > 0) {
    const finding = problems.join('; ');
    return fail(
      `${finding.charAt(0).toUpperCase()}${finding.slice(1)}.`,
      `In the profile, ${fixes.join(', and ')}.`,
    );
  }
  if (dateTimes.values.length === 0 && dates.values.length === 0) {
    return undecided(
      'The records listed have no dates filled in, so their format cannot be checked.',
    );
  }
  // What rules each other common format out: the value it cannot read.
  const evidence = [dateTimes, dates].flatMap((finding) =>
    finding.ruledOut.map(({ format, value }) => `"${value}" cannot be ${format}`),
  );
  const ambiguous = [
    [dateTimes, 'dates.dateTimes', profile.dates.dateTimes, 'date-times'],
    [dates, 'dates.records', profile.dates.records, 'DATE fields'],
  ] as const;
  const open = ambiguous.filter(([finding]) => finding.ambiguousWith.length > 0);
  if (open.length > 0) {
    const what = open
      .map(
        ([finding, key, configured, label]) =>
          `every one of the records' ${label} (such as "${finding.values[0] ?? ''}") reads as ${configured} (${key}) and as ${finding.ambiguousWith.join(' and as ')}, as other dates`,
      )
      .join('; ');
    return undecided(
      `Nothing the VMS listed shows which way it writes dates: ${what}. A day above 12 or an hour above 12 would settle it.`,
      context.target.production
        ? "Check the VMS's API reference for how it writes dates, or check again once a record has a day above 12 (or a time after noon)."
        : "Send one test requisition (--send-test-requisition): it is created today and starts on the 25th, so reading it back settles the order; or check the VMS's API reference.",
      evidence,
    );
  }
  return pass(
    `The records' dates read as the profile says, and only so (date-times ${profile.dates.dateTimes}${dates.values.length > 0 ? `, DATE fields ${profile.dates.records}` : ''}).`,
    evidence,
  );
}
