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
import { type CaseResult, type SuiteRun } from '@/domain/suite-run';

/**
 * Running a QA suite (decision 038): `runSuite`, the run itself. The cases are planned into as
 * few batches as their references allow (`planRun`), each batch sent through the portal's signing
 * proxy with its own Idempotency-Key (a resend after a lost answer reuses it, so no batch reaches
 * the VMS twice), its results read until no row is Pending, each case compared with what it
 * expected. It speaks to the proxy through a `SuiteTransport`: the portal server runs suites
 * in-process (its own proxy, as the user who started the run), so the run is signed, journaled
 * and audited like any send. The client of the server's run API that `npm run suite` uses is in
 * portal-runs.ts.
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
export function messageOf(answer: PortalAnswer): string {
  const parsed = apiErrorBodySchema.safeParse(answer.json);
  return (parsed.success ? parsed.data.error.message : answer.text).slice(0, 500);
}

export function codeOf(answer: PortalAnswer): string | null {
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
