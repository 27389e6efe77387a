import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrorBodySchema } from '@/domain/api-error';
import type { BatchResultRow } from '@/domain/batch-results';
import { payloadKindOf, type PayloadKind } from '@/domain/payload-kind';
import {
  caseFailure,
  planRun,
  resolveItem,
  resultsPollDelay,
  type CaseOutcome,
  type PlannedBatch,
} from '@/domain/suite';
import { type Suite, type SuiteCase } from '@/domain/suite-cases';
import { suiteRunSchema, type CaseResult, type StartRun, type SuiteRun } from '@/domain/suite-run';

/**
 * Running a QA suite (decision 038), in two parts:
 * - `runSuite`, the run itself: the cases planned into as few batches as their references allow
 *   (`planRun`), each batch sent through the portal's signing proxy with its own Idempotency-Key
 *   (a resend after a lost answer reuses it, so no batch reaches the VMS twice), its results read
 *   until no row is Pending, each case compared with what it expected. It speaks to the proxy
 *   through a `SuiteTransport`: the portal server runs suites in-process (its own proxy, as the
 *   user who started the run), so the run is signed, journaled and audited like any send;
 * - the client of the server's run API that `npm run suite` uses (`call`, `startRun`, `waitForRun`).
 */

/** An answer from the portal, whatever its status. */
export interface PortalAnswer {
  status: number;
  json: unknown;
  text: string;
  /** `retry-after` in seconds, when the answer gave one. */
  retryAfter?: number | undefined;
}

/** How a run reaches the portal's proxy (`/api/vms/…`). */
export interface SuiteTransport {
  request(call: {
    method: 'GET' | 'POST';
    path: string;
    body?: unknown;
    idempotencyKey?: string;
  }): Promise<PortalAnswer>;
}

export interface RunProgress {
  /** The cases with a result so far, in the suite's order. */
  cases: CaseResult[];
  /** Batches sent so far. */
  batches: number;
}

export interface RunOptions {
  clientOrgId: number;
  vendorOrgId: number;
  /** Most items in one batch (the connection's). */
  maxBatch: number;
  /** The run's `{{run.id}}`. */
  runToken: string;
  /** Longest wait for one batch's results, and for a lost answer to come back; default 10 min. */
  resultsTimeoutMs?: number;
  /** Aborted: the run stops at its next step with RunStopped (the portal is shutting down). */
  signal?: AbortSignal;
  /** Told as cases get their results. */
  onProgress?(progress: RunProgress): void;
}

/** The run was stopped from outside (`signal`) before every case had its result. */
export class RunStopped extends Error {
  override name = 'RunStopped';
}

const defaultResultsTimeoutMs = 10 * 60_000;

/** The portal's own error message in an answer, or its text. */
function messageOf(answer: PortalAnswer): string {
  const parsed = apiErrorBodySchema.safeParse(answer.json);
  return (parsed.success ? parsed.data.error.message : answer.text).slice(0, 500);
}

function codeOf(answer: PortalAnswer): string | null {
  const parsed = apiErrorBodySchema.safeParse(answer.json);
  return parsed.success ? parsed.data.error.code : null;
}

/**
 * Answers after which the same batch is sent again with the same key: the VMS's answer is
 * still awaited (504), the portal's rate limit (429), its store for a moment unavailable (503
 * store_unavailable). The portal answers a resend with the first send's result once it has it.
 */
function sendAgainLater(answer: PortalAnswer): boolean {
  return (
    answer.status === 504 ||
    answer.status === 429 ||
    (answer.status === 503 && codeOf(answer) === 'store_unavailable')
  );
}

/** Runs every case; a refused batch fails its cases with the portal's words, and the run goes on. */
export async function runSuite(
  suite: Suite,
  transport: SuiteTransport,
  options: RunOptions,
): Promise<RunProgress> {
  const { signal } = options;
  const timeoutMs = options.resultsTimeoutMs ?? defaultResultsTimeoutMs;
  const orgs = `Client_Org_Id=${options.clientOrgId}&Vendor_Org_Id=${options.vendorOrgId}`;
  const created = new Map<string, string>();
  const results: (CaseResult | undefined)[] = suite.cases.map(() => undefined);
  let batches = 0;

  const checkStopped = () => {
    if (signal?.aborted) throw new RunStopped('the run was stopped');
  };
  const wait = async (ms: number) => {
    checkStopped();
    try {
      await sleep(ms, undefined, signal ? { signal } : {});
    } catch {
      throw new RunStopped('the run was stopped');
    }
  };
  const progress = (): RunProgress => ({
    cases: results.filter((result) => result !== undefined),
    batches,
  });

  /** Posts one batch; its batch id, or why it was refused. */
  async function post(
    kind: PayloadKind,
    items: readonly Record<string, string>[],
  ): Promise<{ batchId: string } | { refused: string }> {
    const idempotencyKey = randomUUID();
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt += 1) {
      checkStopped();
      const answer = await transport.request({
        method: 'POST',
        path: `/api/vms/${payloadKindOf(kind).postOperation}?${orgs}`,
        body: items,
        idempotencyKey,
      });
      checkStopped();
      // The portal is shutting down: the batch was not sent, and the run ends here.
      if (answer.status === 503 && codeOf(answer) === 'draining') {
        throw new RunStopped('the portal is shutting down');
      }
      const batchId =
        typeof answer.json === 'object' && answer.json !== null
          ? Reflect.get(answer.json, 'batchid')
          : undefined;
      if (answer.status < 300 && typeof batchId === 'string') return { batchId };
      if (!sendAgainLater(answer) || Date.now() > deadline) {
        return { refused: `the batch was refused (${answer.status}): ${messageOf(answer)}` };
      }
      await wait(
        answer.retryAfter
          ? answer.retryAfter * 1000
          : resultsPollDelay({ polls: attempt + 4, elapsedMs: 0, settled: 0, total: items.length }),
      );
    }
  }

  /** Reads a batch's results until no row is Pending, telling progress as rows settle. */
  async function readResults(
    kind: PayloadKind,
    batchId: string,
    count: number,
    onRows: (rows: BatchResultRow[]) => void,
  ): Promise<BatchResultRow[] | { failed: string }> {
    const deadline = Date.now() + timeoutMs;
    const accepted = performance.now();
    let last = '';
    let read = { elapsedMs: 0, settled: 0 };
    let before: typeof read | undefined;
    for (let polls = 0; ; polls += 1) {
      await wait(resultsPollDelay({ polls, ...read, total: count, ...(before ? { before } : {}) }));
      const answer = await transport.request({
        method: 'GET',
        path: `/api/vms/${payloadKindOf(kind).resultsOperation}?${orgs}&batchid=${encodeURIComponent(batchId)}`,
      });
      checkStopped();
      if (answer.status === 200 && Array.isArray(answer.json)) {
        const rows = answer.json
          .map((row) => payloadKindOf(kind).resultRowSchema.safeParse(row))
          .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
          .sort((a, b) => a.row - b.row);
        onRows(rows);
        const settled = rows.filter((row) => row.status !== 'Pending').length;
        before = read;
        read = { elapsedMs: performance.now() - accepted, settled };
        if (rows.length >= count && settled === rows.length) return rows;
        last = `${rows.filter((row) => row.status === 'Pending').length} of ${count} rows still Pending`;
      } else {
        last = `the last read answered ${answer.status}: ${messageOf(answer)}`;
      }
      if (Date.now() > deadline) {
        return {
          failed: `the results of batch ${batchId} were not final after ${Math.round(timeoutMs / 1000)} s (${last})`,
        };
      }
    }
  }

  function record(
    batch: PlannedBatch,
    position: number,
    outcome: { row?: BatchResultRow; batchId: string | null; refused?: string },
    startedAt: number,
  ): void {
    const index = batch.cases[position] ?? 0;
    const entry = suite.cases[index] as SuiteCase;
    const row = outcome.row;
    const actual: CaseOutcome | null = row
      ? { status: row.status, message: row.message, createdId: row.createdId }
      : null;
    if (actual && actual.createdId !== '') created.set(entry.id, actual.createdId);
    const failure =
      outcome.refused ??
      (actual ? caseFailure(entry.expect, actual) : 'the VMS gave no result row for this item');
    results[index] = {
      id: entry.id,
      name: entry.name ?? entry.id,
      kind: entry.kind,
      passed: failure === null,
      expected: entry.expect,
      actual,
      failure,
      batchId: outcome.batchId,
      durationMs: Math.round(performance.now() - startedAt),
      verdict: null,
    };
  }

  /** One batch: sent, its results read, its cases recorded. */
  async function runBatch(batch: PlannedBatch): Promise<void> {
    const startedAt = performance.now();
    const items = batch.cases.map((index) =>
      resolveItem((suite.cases[index] as SuiteCase).item, {
        runId: options.runToken,
        caseIndex: index,
        created,
      }),
    );
    const sent = await post(batch.kind, items);
    batches += 1;
    if ('refused' in sent) {
      batch.cases.forEach((_, position) =>
        record(batch, position, { batchId: null, refused: sent.refused }, startedAt),
      );
      options.onProgress?.(progress());
      return;
    }
    let settled = 0;
    const rows = await readResults(batch.kind, sent.batchId, items.length, (read) => {
      // Rows that are final count as done while the others are still Pending.
      const final = read.filter((row) => row.status !== 'Pending').length;
      if (final > settled && final < items.length) {
        settled = final;
        read.forEach((row, position) => {
          if (row.status !== 'Pending' && position < batch.cases.length)
            record(batch, position, { row, batchId: sent.batchId }, startedAt);
        });
        options.onProgress?.(progress());
      }
    });
    batch.cases.forEach((_, position) =>
      record(
        batch,
        position,
        Array.isArray(rows)
          ? {
              batchId: sent.batchId,
              ...(rows[position] ? { row: rows[position] } : {}),
            }
          : { batchId: sent.batchId, refused: rows.failed },
        startedAt,
      ),
    );
    options.onProgress?.(progress());
  }

  for (const wave of planRun(suite.cases, options.maxBatch)) {
    // A wave's batches of the two kinds go out together; one kind's batches in order, so they
    // reach the VMS in the suite's order.
    const byKind = new Map<PayloadKind, PlannedBatch[]>();
    for (const batch of wave) byKind.set(batch.kind, [...(byKind.get(batch.kind) ?? []), batch]);
    await Promise.all(
      [...byKind.values()].map(async (kindBatches) => {
        for (const batch of kindBatches) await runBatch(batch);
      }),
    );
  }
  return progress();
}

/** Text as XML character data: markup escaped, and the control characters XML 1.0 forbids left out. */
function xml(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) continue;
    out += /[<>&"']/.test(char) ? `&#${code};` : char;
  }
  return out;
}

/** A run as JUnit XML, which CI systems show as a test run: one testcase per case. */
export function junitXml(run: SuiteRun): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const cases = run.cases.map((entry) => {
    const open = `  <testcase classname="${xml(run.suiteName)}" name="${xml(entry.name)}" time="${seconds(entry.durationMs)}">`;
    return entry.passed
      ? `${open}</testcase>`
      : `${open}\n    <failure message="${xml(entry.failure ?? '')}">${xml(
          `expected ${JSON.stringify(entry.expected)}, got ${JSON.stringify(entry.actual)}`,
        )}</failure>\n  </testcase>`;
  });
  // Cases an interrupted run never reached are errors: they did not run.
  const notRun = run.casesTotal - run.cases.length;
  const errors =
    run.status === 'interrupted' && notRun > 0
      ? [
          `  <testcase classname="${xml(run.suiteName)}" name="${notRun} cases not run" time="0">\n    <error message="${xml(`the run was interrupted: ${run.interruption ?? 'the portal stopped'}`)}"></error>\n  </testcase>`,
        ]
      : [];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${xml(run.suiteName)}" tests="${run.cases.length + errors.length}" failures="${run.failed}" errors="${errors.length}" time="${seconds(run.durationMs ?? 0)}" timestamp="${run.startedAt}">`,
    ...cases,
    ...errors,
    '</testsuite>',
    '',
  ].join('\n');
}

/** The portal `npm run suite` talks to. */
export interface PortalTarget {
  /** The portal's address, e.g. http://127.0.0.1:8787 */
  portal: string;
  /**
   * A personal API token (`vmsp_…`), sent as `Authorization: Bearer` on every call, for a portal
   * with sign-in on (decision 037).
   */
  token?: string | undefined;
}

/** The environment variable a CI job puts its personal API token in (the command reads it). */
export const portalTokenEnv = 'VMS_PORTAL_TOKEN';

/** The portal could not be used: unreachable, sign-in, a refusal. The message says what to do. */
export class RunError extends Error {
  override name = 'RunError';
}

/**
 * The portal refused the command's credentials: no token for a portal with sign-in on, a token
 * revoked, expired or unknown (401), or one whose scope does not reach the suite API (403).
 */
export class AccessRefused extends RunError {
  override name = 'AccessRefused';
}

/**
 * One call to the portal's API. The one place the command's requests get their headers, so
 * whatever identifies the command to a portal with sign-in on is added here, once.
 */
export async function call(
  target: PortalTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<PortalAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  let response: Response;
  try {
    response = await fetch(new URL(path, target.portal), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new RunError(
      `the portal at ${target.portal} could not be reached (${error instanceof Error ? error.message : String(error)}): check --portal and that it runs`,
    );
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Left null: the status and text say what happened.
  }
  return { status: response.status, json, text };
}

/** The portal's words on one line, cut to a length a CI log shows whole. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

/** Why the portal refused a call of the command, in the command's words. */
function refusal(target: PortalTarget, answer: PortalAnswer, what: string): RunError {
  const said = messageOf(answer);
  // Credentials refused: no case can run, so one line says why and what to do, nothing more.
  if (answer.status === 401) {
    return new AccessRefused(
      target.token
        ? `the portal refused the API token (401): ${oneLine(said)}`
        : `the portal at ${target.portal} needs sign-in (401): pass --token or set ${portalTokenEnv} to a personal API token from your Account page`,
    );
  }
  if (answer.status === 403 && codeOf(answer) === 'token_scope') {
    return new AccessRefused(`the portal refused the API token (403): ${oneLine(said)}`);
  }
  if (answer.status === 403) return new RunError(`${what}: refused (403): ${said}`);
  if (answer.status === 404 && codeOf(answer) === null) {
    return new RunError(
      `${what}: ${answer.status} from ${said.slice(0, 100)}: is --portal the address of a VMS portal?`,
    );
  }
  return new RunError(`${what}: ${answer.status}: ${said}`);
}

/** Starts a run on the portal (`POST /api/suite-runs`). */
export async function startRun(target: PortalTarget, body: StartRun): Promise<SuiteRun> {
  const answer = await call(target, 'POST', '/api/suite-runs', body);
  if (answer.status !== 202) throw refusal(target, answer, 'the run was not started');
  const run = suiteRunSchema.safeParse(answer.json);
  if (!run.success)
    throw new RunError(
      'the portal answered the run in a shape this command does not know: is it the same release?',
    );
  return run.data;
}

/**
 * Waits for a run to end, reading it as it goes (the portal answers as soon as more cases are
 * done, or after a while); `onProgress` is told each change.
 */
export async function waitForRun(
  target: PortalTarget,
  id: number,
  onProgress: (run: SuiteRun) => void,
): Promise<SuiteRun> {
  let seen = -1;
  for (;;) {
    // The first read answers at once; then the portal answers when more cases are done.
    const answer = await call(
      target,
      'GET',
      `/api/suite-runs/${id}${seen < 0 ? '' : `?waitMs=20000&seen=${seen}`}`,
    );
    if (answer.status !== 200) throw refusal(target, answer, `run ${id} could not be read`);
    const parsed = suiteRunSchema.safeParse(answer.json);
    if (!parsed.success)
      throw new RunError(`run ${id} came back in a shape this command does not know`);
    const run = parsed.data;
    if (run.casesDone !== seen || run.status !== 'running') onProgress(run);
    seen = run.casesDone;
    if (run.status !== 'running') return run;
  }
}
