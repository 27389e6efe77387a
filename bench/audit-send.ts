import type { FastifyRequest } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditTrail, type SentCall } from '../src/server/audit/audit-trail';
import { createAuditStore } from '../src/server/store/audit-events';
import { openPortalDatabase } from '../src/server/store/portal-database';
import { traceContextOf } from '../src/server/trace-context';

/**
 * What the audit trail adds to one send (decision 036), in a tight loop: the proxy's call to
 * `send` (a record queued), the trace context every /api request gets, and the write that follows
 * on a later turn, per event, in the trail's batches on an SQLite file. Run: `npx tsx bench/audit-send.ts`.
 */
const rounds = 200_000;
const dir = mkdtempSync(join(tmpdir(), 'audit-bench-'));
const { db, close } = await openPortalDatabase(join(dir, 'portal.db'));
const store = createAuditStore(db);
const trail = new AuditTrail({
  store: Promise.resolve(store),
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
  traceContext: traceContextOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'),
} as unknown as FastifyRequest;
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

function perCall(label: string, count: number, work: () => void): void {
  const started = performance.now();
  work();
  const us = ((performance.now() - started) * 1000) / count;
  console.log(`${label}: ${us.toFixed(2)} µs`);
}

// Warm up, then measure: `send` queues at most 10,000, so the loop writes between chunks.
for (let round = 0; round < 3; round += 1) {
  let queued = 0;
  let written = 0;
  let sendMs = 0;
  let writeMs = 0;
  while (queued < rounds) {
    const chunk = 5000;
    let started = performance.now();
    for (let i = 0; i < chunk; i += 1) trail.send(request, line, answer);
    sendMs += performance.now() - started;
    started = performance.now();
    await trail.flush();
    writeMs += performance.now() - started;
    queued += chunk;
    written += chunk;
  }
  console.log(
    `round ${round + 1}: send ${((sendMs * 1000) / queued).toFixed(2)} µs, write ${((writeMs * 1000) / written).toFixed(2)} µs per event`,
  );
}
perCall('traceContextOf (valid traceparent)', rounds, () => {
  for (let i = 0; i < rounds; i += 1)
    traceContextOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
});
perCall('traceContextOf (none: a new trace)', rounds, () => {
  for (let i = 0; i < rounds; i += 1) traceContextOf(undefined);
});
await trail.close();
await close();
rmSync(dir, { recursive: true, force: true });
