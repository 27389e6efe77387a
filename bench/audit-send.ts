import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { AuditTrail, type SentCall } from '@/server/audit/audit-trail';
import { createAuditStore } from '@/server/audit/store/audit-events';
import { traceContextOf } from '@/server/http/trace-context';
import { openPortalSqlite } from '@/test-support/portal-stores';

/**
 * What the audit trail adds to one send (decision 036), in a tight loop: the proxy's call to
 * `send` (a record queued), the trace context every /api request gets, and the write that follows
 * on a later turn, per event, in the trail's batches on an SQLite file. Standalone:
 * `npx tsx bench/audit-send.ts`; in `npm run bench` as `audit`.
 */
const events = 100_000;
/** Per send, on the proxy's path: a queued record and a trace context. */
const SEND_BUDGET_US = 5;
/** Per event, later, off the path: what a batch's transaction costs divided among its events. */
const WRITE_BUDGET_US = 50;

export interface AuditBenchResult {
  sendUs: number;
  writeUs: number;
  traceUs: number;
  withinBudget: boolean;
}

const line: SentCall = {
  operation: 'requisitionimport',
  clientOrgId: 1001,
  vendorOrgId: 9001,
  itemCount: 100,
  status: 202,
  upstreamStatus: 202,
  durationMs: 12.3,
  replayed: false,
  idempotencyKey: '6f1d2c3b-9a8e-4f7d-8c6b-5a4e3d2c1b0a',
  connection: 'uat',
  audit: true,
};
const answer = Buffer.from('{"batchid":"rb_123456","received":100}');
const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

export async function runAuditBench(): Promise<AuditBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
  const { db, close } = await openPortalSqlite(join(dir, 'portal.db'));
  const trail = new AuditTrail({
    store: createAuditStore(db),
    settings: { retentionMs: 365 * 24 * 60 * 60 * 1000 },
    log: { error: () => {}, warn: () => {} },
    // Never written on its own during the loop: the writes are timed apart.
    flushDelayMs: 60_000,
  });
  const request = {
    ip: '127.0.0.1',
    portalSession: {
      user: { id: 'u-1', email: 'rita@example.com', role: 'recruiter', clientOrgIds: [1001] },
    },
    traceContext: traceContextOf(traceparent),
  } as unknown as FastifyRequest;

  const runs: { sendUs: number; writeUs: number; traceUs: number }[] = [];
  // The first round warms up; the trail queues at most 10,000, so it is written between chunks.
  for (let round = 0; round < 4; round += 1) {
    let sendMs = 0;
    let writeMs = 0;
    for (let done = 0; done < events; done += 5000) {
      let started = performance.now();
      for (let i = 0; i < 5000; i += 1) trail.send(request, line, answer);
      sendMs += performance.now() - started;
      started = performance.now();
      await trail.flush();
      writeMs += performance.now() - started;
    }
    const started = performance.now();
    for (let i = 0; i < events; i += 1) traceContextOf(i % 2 === 0 ? traceparent : undefined);
    const traceMs = performance.now() - started;
    runs.push({
      sendUs: (sendMs * 1000) / events,
      writeUs: (writeMs * 1000) / events,
      traceUs: (traceMs * 1000) / events,
    });
  }
  await trail.close();
  await close();
  rmSync(dir, { recursive: true, force: true });

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? Number.NaN;
  const measured = runs.slice(1);
  const sendUs = median(measured.map((run) => run.sendUs));
  const writeUs = median(measured.map((run) => run.writeUs));
  const traceUs = median(measured.map((run) => run.traceUs));
  const withinBudget = sendUs + traceUs < SEND_BUDGET_US && writeUs < WRITE_BUDGET_US;
  console.log(
    `\nAudit trail, per send (${events.toLocaleString('en')} a round, median of 3):` +
      `\n  queued on the proxy's path: ${sendUs.toFixed(2)} µs` +
      `\n  trace context of the request: ${traceUs.toFixed(2)} µs` +
      `\n  written later, in batches (SQLite): ${writeUs.toFixed(2)} µs` +
      `\nBudget: on the path < ${SEND_BUDGET_US} µs, written < ${WRITE_BUDGET_US} µs → ${withinBudget ? 'met' : 'MISSED'}`,
  );
  return { sendUs, writeUs, traceUs, withinBudget };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runAuditBench();
  if (!result.withinBudget) process.exitCode = 1;
}
