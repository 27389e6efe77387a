import {
  overallVerdict,
  probeTitles,
  type DoctorReport,
  type ProbeId,
  type ProbeResult,
  type ProbeVerdict,
} from '@/domain/connection-check';
import { scrubText, SecretNeedles } from '@/server/redaction/credential-scrub';
import { probeClientOrgs, probeClock, probeCredentials, probeReachable } from './connection-probes';
import { probeFilter, probePaging } from './list-probes';
import { networkFailure, ProbeClient } from './probe-client';
import type { ProbeContext as Context } from './probe-context';
import { undecided, type Outcome } from './probe-outcome';
import { probeDates, probeListRecords, probeResultsPaths } from './reading-probes';
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
