import { randomBytes } from 'node:crypto';
import {
  overallVerdict,
  probeTitles,
  type DoctorReport,
  type ProbeId,
  type ProbeResult,
  type ProbeVerdict,
} from '@/domain/connection-check';
import { payloadKindDescriptors, type PayloadKind } from '@/domain/payload-kind';
import { readPointer, vmsCallPath, withPage, type VmsProfile } from '@/domain/vms-profile';
import { scrubText, SecretNeedles } from '@/server/redaction/credential-scrub';
import { probeFilter, probePaging } from './list-probes';
import { networkFailure, ProbeClient, type ProbeAnswer } from './probe-client';
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
  reqIdFilterPath,
  said,
  undecided,
  type Outcome,
} from './probe-outcome';
import {
  checkDateTimes,
  checkRecordDates,
  fieldNameStyle,
  lookalikes,
  type JsonRecord,
} from './record-checks';
import { probeSendTest } from './send-test-probe';
import type { DoctorTarget } from './target';

/**
 * The connection doctor: safe probes of one VMS connection, in order, each passed, failed or
 * undecided with a one-line finding and, when it did not pass, what to change. Every probe is a
 * GET signed by the connection's profile, as the proxy would sign it; the one POST (a test
 * requisition) is sent only when asked, once, never retried. The report never holds the key, the
 * secret or a signature.
 */

export interface DoctorOptions {
  /** Send one clearly-marked test requisition and read its result (never by default). */
  sendTest?: boolean;
  /** Allow the test send on a production connection. */
  force?: boolean;
  /** This machine's clock, ms (tests). */
  now?: () => number;
  /** How long to wait for the test requisition's result, and how often to look. */
  sendTestWaitMs?: number;
  sendTestPollMs?: number;
}

/**
 * The test send asked for on a production connection without `force` (the doctor's check, and a
 * draft's: `instead` says what to do rather than send).
 */
export class SendTestRefused extends Error {
  override name = 'SendTestRefused';
  constructor(
    connection: string,
    instead = 'Check it without the test send, or force it if you mean it (--force; "force": true).',
  ) {
    super(
      `The ${connection} connection is a production VMS: the test requisition would be a real one there. ${instead}`,
    );
  }
}

/** The clock differences the doctor warns at and fails at; the sandbox refuses beyond 300 s. */
export const clockWarnSeconds = 60;
export const clockFailSeconds = 240;

/** An array somewhere near the top of a body, as a hint for `list.records` / `results.*.rows`. */
export function arrayPointer(body: unknown, depth = 0): string | null {
  if (Array.isArray(body)) return '';
  if (!isRecord(body) || depth > 2) return null;
  for (const [key, value] of Object.entries(body)) {
    const below = arrayPointer(value, depth + 1);
    if (below !== null) return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}${below}`;
  }
  return null;
}

const recipeFix =
  'Check the API key and secret of this connection (VMS_API_KEY, VMS_API_SECRET) against the VMS account page; then the profile\'s "signature" key: if the VMS signs differently, run `npm run doctor -- find-recipe` with a signed example from the VMS\'s onboarding documents and put its answer in the profile\'s "signature".';

/** The probes' shared state: what earlier probes learnt that later ones need. */
interface Context {
  target: DoctorTarget;
  client: ProbeClient;
  now: () => number;
  reachable?: ProbeAnswer;
  clockSkewSeconds?: number;
  records?: JsonRecord[];
}

/** The requisitions GET that lists nothing: only a Req_Id of 0, which no VMS gives. */
async function probeReachable(context: Context): Promise<Outcome> {
  const { target, client } = context;
  try {
    const answer = await client.call('GET', '');
    context.reachable = answer;
    const where = new URL(target.baseUrl).host;
    return pass(
      `${where} answered over HTTP (status ${answer.status} for the base address, in ${Math.max(0, answer.answeredAt - answer.sentAt)} ms).`,
    );
  } catch (error) {
    const failure = networkFailure(error, target);
    return fail(failure.finding, failure.fix);
  }
}

async function probeClock(context: Context): Promise<Outcome> {
  const answer = context.reachable;
  const header = answer?.headers.date;
  const vmsTime = header === undefined ? Number.NaN : Date.parse(header);
  if (!answer || Number.isNaN(vmsTime)) {
    return undecided(
      'The VMS sent no readable Date header, so its clock cannot be compared with this one.',
      'Make sure this machine keeps its clock in sync (NTP): signatures carry the time, and a VMS refuses those too far from its own clock.',
    );
  }
  // A Date header is whole seconds, written at some moment of its second: its middle is the
  // best guess, against the middle of the call on this side.
  const here = (answer.sentAt + answer.answeredAt) / 2;
  const seconds = Math.round((vmsTime + 500 - here) / 1000);
  context.clockSkewSeconds = seconds;
  const how =
    seconds === 0
      ? 'agrees with this machine to the second'
      : `is ${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} this machine`;
  const fix = `Sync this machine's clock (NTP: timedatectl set-ntp true, or your platform's time service); if this machine is right, the VMS's clock is off: tell its operator.`;
  if (Math.abs(seconds) >= clockFailSeconds) {
    return fail(
      `The VMS's clock (Date header) ${how}: signed calls carry this machine's time, and a VMS refuses a timestamp a few minutes off (the sandbox: more than 300 s).`,
      fix,
    );
  }
  if (Math.abs(seconds) >= clockWarnSeconds) {
    return undecided(
      `The VMS's clock (Date header) ${how}: still within what most VMSs accept, but close to where signatures are refused.`,
      fix,
    );
  }
  return pass(`The VMS's clock (Date header) ${how}.`);
}

async function probeCredentials(context: Context): Promise<Outcome> {
  const { target, client } = context;
  const orgId = target.clientOrgIds[0];
  if (orgId === undefined) {
    return fail(
      'The connection lists no client org to ask the VMS about.',
      'List the client orgs this portal acts for in VMS_CLIENT_ORGS.',
    );
  }
  const answer = await client.call('GET', reqIdFilterPath(target, orgId, '0'));
  if (ok(answer)) {
    return pass(
      `The VMS accepted the key and the signature (a requisitions list for client org ${orgId}: status ${answer.status}).`,
    );
  }
  if (answer.status === 401 || answer.status === 403) {
    return fail(
      `The VMS refused the key or the signature (status ${answer.status}, ${said(target.profile, answer)}).`,
      `${recipeFix} If the VMS names the vendor org, check VMS_VENDOR_ORG_ID (${target.vendorOrgId}).`,
    );
  }
  if (answer.status !== 404) {
    // A filter the VMS cannot read (an operator word of another VMS) is the filter check's to
    // name: the list without it shows whether the key and signature are accepted.
    const unfiltered = await client.call(
      'GET',
      vmsCallPath(target.profile, 'requisitions', orgQuery(target, orgId)),
    );
    if (ok(unfiltered)) {
      return pass(
        `The VMS accepted the key and the signature (the requisitions list for client org ${orgId}: status ${unfiltered.status}; filtered on Req ID = 0 it answered ${answer.status}, see the list filter check).`,
      );
    }
  }
  if (answer.status === 404) {
    return fail(
      `The VMS has no requisitions list at ${target.profile.paths.requisitions} (status 404, ${said(target.profile, answer)}).`,
      'Set paths.requisitions in the profile to where the VMS lists requisitions (its API reference names it).',
    );
  }
  return fail(
    `The requisitions list for client org ${orgId} answered status ${answer.status} (${said(target.profile, answer)}).`,
    "Check paths.requisitions and list.filter (the filter parameter names and list.filter.operators) in the profile against the VMS's API reference.",
  );
}

async function probeClientOrgs(context: Context): Promise<Outcome> {
  const { target, client } = context;
  const refused: string[] = [];
  for (const orgId of target.clientOrgIds) {
    let answer = await client.call('GET', reqIdFilterPath(target, orgId, '0'));
    if (!ok(answer) && answer.status !== 401 && answer.status !== 403) {
      // A filter the VMS cannot read is the filter check's to name, not the org's refusal.
      answer = await client.call(
        'GET',
        vmsCallPath(target.profile, 'requisitions', orgQuery(target, orgId)),
      );
    }
    if (!ok(answer)) {
      refused.push(
        `client org ${orgId} (status ${answer.status}, ${said(target.profile, answer)})`,
      );
    }
  }
  const all = target.clientOrgIds.join(', ');
  if (refused.length === 0) {
    return pass(`The VMS accepts this key for every client org of the connection (${all}).`);
  }
  return fail(
    `The VMS refused ${refused.join('; ')}.`,
    "Remove the refused org from VMS_CLIENT_ORGS (the connection's client orgs), or ask the VMS to let this API key act for it.",
  );
}

async function probeListRecords(context: Context): Promise<Outcome> {
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

async function probeResultsPaths(context: Context): Promise<Outcome> {
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

async function probeDates(context: Context): Promise<Outcome> {
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

/**
 * The key, the secret and every signature sent, out of the report, wherever a VMS echoed them and
 * however it wrote them (the proxy's scrub: escaped, encoded, base64).
 */
function scrubbed(report: DoctorReport, secrets: readonly string[]): DoctorReport {
  const json = JSON.stringify(report);
  return JSON.parse(scrubText(json, SecretNeedles.of(secrets))) as DoctorReport;
}

/** Which probes each needs to have passed (list records only to have found records). */
const needs: Partial<Record<ProbeId, ProbeId[]>> = {
  clock: ['reachable'],
  credentials: ['reachable', 'clock'],
  clientOrgs: ['credentials'],
  listRecords: ['credentials'],
  paging: ['credentials', 'listRecords'],
  filter: ['credentials', 'listRecords'],
  resultsPaths: ['credentials'],
  dates: ['credentials'],
  sendTest: ['credentials'],
};

export async function runDoctor(
  target: DoctorTarget,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  if (options.sendTest === true && target.production && options.force !== true) {
    throw new SendTestRefused(target.name);
  }
  const now = options.now ?? Date.now;
  const client = new ProbeClient(target, now);
  const context: Context = { target, client, now };
  const probes: Array<[ProbeId, () => Promise<Outcome>]> = [
    ['reachable', () => probeReachable(context)],
    ['clock', () => probeClock(context)],
    ['credentials', () => probeCredentials(context)],
    ['clientOrgs', () => probeClientOrgs(context)],
    ['listRecords', () => probeListRecords(context)],
    ['paging', () => probePaging(context)],
    ['filter', () => probeFilter(context)],
    ['resultsPaths', () => probeResultsPaths(context)],
    [
      'dates',
      async () =>
        context.records === undefined
          ? undecided('Skipped: no requisition records were read (see the requisition list).')
          : probeDates(context),
    ],
  ];
  if (options.sendTest === true) {
    const timing = { waitMs: options.sendTestWaitMs, pollMs: options.sendTestPollMs };
    probes.push(['sendTest', () => probeSendTest(context, timing)]);
  }
  const results: ProbeResult[] = [];
  const verdicts = new Map<ProbeId, ProbeVerdict>();
  try {
    for (const [id, run] of probes) {
      const failedNeed = (needs[id] ?? []).find((need) => verdicts.get(need) === 'failed');
      let outcome: Outcome;
      if (failedNeed !== undefined) {
        outcome = undecided(
          `Skipped: the ${probeTitles[failedNeed].toLowerCase()} check failed; fix it first.`,
        );
      } else {
        try {
          outcome = await run();
        } catch (error) {
          const failure = networkFailure(error, target);
          outcome = undecided(`The check could not finish: ${failure.finding}`, failure.fix);
        }
      }
      verdicts.set(id, outcome.verdict);
      results.push({ id, title: probeTitles[id], ...outcome });
    }
  } finally {
    await client.close();
  }
  return scrubbed(
    {
      connection: target.name,
      vms: target.label,
      checkedAt: new Date(now()).toISOString(),
      verdict: overallVerdict(results),
      probes: results,
    },
    [target.apiKey, target.apiSecret, ...client.signatures],
  );
}
