import { randomBytes, randomUUID } from 'node:crypto';
import type { BatchResultRow } from '../domain/batch-results';
import { payloadKindOf } from '../domain/payload-kind';
import {
  caseFailure,
  planBatches,
  resolveItem,
  type CaseOutcome,
  type Suite,
  type SuiteCase,
} from '../domain/suite';

/**
 * Runs a suite through a running portal, as the browser sends: each batch a POST through the
 * signing proxy with its own Idempotency-Key (so a retry is never sent twice), its results
 * polled until no row is Pending, each case compared with what it expected.
 */

export interface SuiteTarget {
  /** The portal's address, e.g. http://127.0.0.1:8787 */
  portal: string;
  /** The VMS connection to run on; the portal's default when absent. */
  connection?: string | undefined;
  clientOrgId: number;
  vendorOrgId: number;
  /** Longest wait for one batch's results. */
  resultsTimeoutMs?: number;
  /**
   * A personal API token (`vmsp_…`), sent as `Authorization: Bearer` on every call, for a portal
   * with sign-in on (decision 037).
   */
  token?: string | undefined;
}

export interface CaseReport {
  id: string;
  name: string;
  kind: SuiteCase['kind'];
  passed: boolean;
  expected: SuiteCase['expect'];
  actual: CaseOutcome | null;
  /** Why it failed; null when it passed. */
  failure: string | null;
  batchId: string | null;
  durationMs: number;
}

export interface SuiteReport {
  suite: string;
  runId: string;
  connection: string | null;
  startedAt: string;
  durationMs: number;
  passed: number;
  failed: number;
  cases: CaseReport[];
}

class RunError extends Error {}

/** The environment variable a CI job puts its personal API token in (the CLI reads it). */
export const portalTokenEnv = 'VMS_PORTAL_TOKEN';

/**
 * The portal refused the run's credentials: no token for a portal with sign-in on, a token
 * revoked, expired or unknown (401), or one whose scope does not reach the proxy (403). No case
 * can pass, so the run stops at once and says so in one line.
 */
class AccessRefused extends RunError {}

/** The portal's own error message and code, when the answer is its error body. */
function portalError(json: unknown): { code: string; message: string } | null {
  const error = typeof json === 'object' && json !== null ? Reflect.get(json, 'error') : undefined;
  if (typeof error !== 'object' || error === null) return null;
  const code: unknown = Reflect.get(error, 'code');
  const message: unknown = Reflect.get(error, 'message');
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}

/** The portal's words on one line, cut to a length a CI log shows whole. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

function accessRefused(
  target: SuiteTarget,
  status: number,
  error: { code: string; message: string } | null,
): AccessRefused | null {
  if (status === 401) {
    const said = oneLine(error?.message ?? 'no reason given');
    return new AccessRefused(
      target.token
        ? `the portal refused the API token (401): ${said}`
        : `the portal at ${target.portal} needs sign-in (401): pass --token or set ${portalTokenEnv} to a personal API token from your Account page`,
    );
  }
  if (status === 403 && error?.code === 'token_scope') {
    return new AccessRefused(`the portal refused the API token (403): ${oneLine(error.message)}`);
  }
  return null;
}

async function call(
  target: SuiteTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.connection) headers['x-vms-connection'] = target.connection;
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = randomUUID();
  }
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
  const refused = accessRefused(target, response.status, portalError(json));
  if (refused) throw refused;
  return { status: response.status, json, text };
}

function orgQuery(target: SuiteTarget): string {
  return `Client_Org_Id=${target.clientOrgId}&Vendor_Org_Id=${target.vendorOrgId}`;
}

/** Sends one batch and waits for its rows, in submission order. */
async function sendBatch(
  target: SuiteTarget,
  kind: SuiteCase['kind'],
  items: readonly Record<string, string>[],
): Promise<{ batchId: string; rows: BatchResultRow[] } | { refused: string }> {
  const { postOperation, resultsOperation, resultRowSchema } = payloadKindOf(kind);
  const sent = await call(target, 'POST', `/api/vms/${postOperation}?${orgQuery(target)}`, items);
  const batchId =
    typeof sent.json === 'object' && sent.json !== null
      ? Reflect.get(sent.json, 'batchid')
      : undefined;
  if (sent.status >= 300 || typeof batchId !== 'string') {
    const message =
      typeof sent.json === 'object' && sent.json !== null
        ? String(Reflect.get(Reflect.get(sent.json, 'error') ?? {}, 'message') ?? sent.text)
        : sent.text;
    return { refused: `the batch was refused (${sent.status}): ${message.slice(0, 500)}` };
  }
  const deadline = Date.now() + (target.resultsTimeoutMs ?? 60_000);
  let wait = 100;
  for (;;) {
    const answer = await call(
      target,
      'GET',
      `/api/vms/${resultsOperation}?${orgQuery(target)}&batchid=${encodeURIComponent(batchId)}`,
    );
    if (answer.status === 200 && Array.isArray(answer.json)) {
      const rows = answer.json
        .map((row) => resultRowSchema.safeParse(row))
        .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
        .sort((a, b) => a.row - b.row);
      if (rows.length >= items.length && rows.every((row) => row.status !== 'Pending')) {
        return { batchId, rows };
      }
    }
    if (Date.now() > deadline) {
      throw new RunError(
        `the results of batch ${batchId} were still pending after ${target.resultsTimeoutMs ?? 60_000} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 1000);
  }
}

/** Runs every case; a refused batch fails its cases with the portal's words, and the run goes on. */
export async function runSuite(suite: Suite, target: SuiteTarget): Promise<SuiteReport> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const runId = randomBytes(4).toString('hex');
  const created = new Map<string, string>();
  const reports: CaseReport[] = [];
  for (const batch of planBatches(suite.cases)) {
    const batchStarted = performance.now();
    const cases = batch.map((index) => ({ index, entry: suite.cases[index] as SuiteCase }));
    const kind = cases[0]?.entry.kind ?? 'requisition';
    const items = cases.map(({ index, entry }) =>
      resolveItem(entry.item, { runId, caseIndex: index, created }),
    );
    const answer = await sendBatch(target, kind, items);
    const durationMs = Math.round(performance.now() - batchStarted);
    cases.forEach(({ entry }, position) => {
      const row = 'rows' in answer ? answer.rows[position] : undefined;
      const actual: CaseOutcome | null = row
        ? { status: row.status, message: row.message, createdId: row.createdId }
        : null;
      if (actual && actual.createdId !== '') created.set(entry.id, actual.createdId);
      const failure =
        'refused' in answer
          ? answer.refused
          : actual
            ? caseFailure(entry.expect, actual)
            : 'the VMS gave no result row for this item';
      reports.push({
        id: entry.id,
        name: entry.name ?? entry.id,
        kind: entry.kind,
        passed: failure === null,
        expected: entry.expect,
        actual,
        failure,
        batchId: 'batchId' in answer ? answer.batchId : null,
        durationMs,
      });
    });
  }
  const failed = reports.filter((report) => !report.passed).length;
  return {
    suite: suite.name,
    runId,
    connection: target.connection ?? null,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    passed: reports.length - failed,
    failed,
    cases: reports,
  };
}

export { AccessRefused, RunError };

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

/** The report as JUnit XML, which CI systems show as a test run: one testcase per case. */
export function junitXml(report: SuiteReport): string {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const cases = report.cases.map((entry) => {
    const open = `  <testcase classname="${xml(report.suite)}" name="${xml(entry.name)}" time="${seconds(entry.durationMs)}">`;
    return entry.passed
      ? `${open}</testcase>`
      : `${open}\n    <failure message="${xml(entry.failure ?? '')}">${xml(
          `expected ${JSON.stringify(entry.expected)}, got ${JSON.stringify(entry.actual)}`,
        )}</failure>\n  </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${xml(report.suite)}" tests="${report.cases.length}" failures="${report.failed}" errors="0" time="${seconds(report.durationMs)}" timestamp="${report.startedAt}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n');
}
