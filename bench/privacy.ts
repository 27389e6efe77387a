/**
 * One person erased from a journal of 100,000 calls (decision 059), while the portal serves. The
 * calls are seeded straight into the portal's SQLite journal store in bulk: candidate batches of
 * one to three candidates each, all distinct, ERASE_CALLS of them about one person (their e-mail
 * and name in the candidate's fields, and in the VMS's answer as a message). Then the portal is
 * started on that file (in this process, as its own event loop is what an erasure could block)
 * and asked to erase the person through `POST /api/admin/privacy/erase`, while a probe asks
 * `/api/health/live` every PROBE_EVERY_MS from a process of its own, as a user's browser would: a
 * client in the portal's own process would wait for the event loop twice, once for the request
 * and once more for reading its answer.
 *
 * Budgets: the erasure takes under 10 s, and no probe takes over 50 ms (its max and p99 are
 * reported). The erasure's counts are checked (every seeded call about the person rewritten).
 * Standalone: `npx tsx bench/privacy.ts`; in `npm run bench` as `privacy`.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { subjectErasedSchema } from '@/domain/personal-subject';
import type { BodyToKeep, JournalRecord } from '@/server/journal/store/journal-store';
import { startCaptureUpstream, startTestPortal, testConfig } from '@/test-support/capture-upstream';
import { openPortalStores } from '@/test-support/portal-stores';
import { formatTable } from './measure';

const CALLS = 100_000;
/** Calls about the person: a few hundred, spread through the journal. */
const ERASE_CALLS = 300;
const WRITE_BATCH = 1000;
const PROBE_EVERY_MS = 20;
const BUDGET_MS = 10_000;
const PROBE_BUDGET_MS = 50;
const person = {
  email: 'wilhelmina.osterhout@example.org',
  first: 'Wilhelmina',
  last: 'Osterhout',
};

function body(text: string): BodyToKeep {
  const bytes = Buffer.from(text);
  return {
    sha256: createHash('sha256').update(bytes).digest(),
    size: bytes.length,
    kept: bytes,
    truncated: false,
    redacted: false,
  };
}

const firstNames = ['Ada', 'Omar', 'Lin', 'Priya', 'Jonas', 'Maria', 'Kwame', 'Sofia', 'Ravi'];
const lastNames = ['Reyes', 'Novak', 'Okafor', 'Lindqvist', 'Haddad', 'Moreau', 'Tanaka'];

function candidate(i: number, j: number, theirs: boolean) {
  return {
    requirementid: String(40000 + (i % 50)),
    firstname: theirs ? person.first : `${firstNames[i % firstNames.length]}${j}`,
    lastname: theirs ? person.last : `${lastNames[(i + j) % lastNames.length]}-${i}`,
    candemail: theirs ? person.email : `c${i}.${j}@example.com`,
    engagementtype: '1',
    vendorcandidateid: `V-${i}-${j}`,
    billrate: String(50 + (i % 40)),
    summaryofqualifications: `Eight years in logistics, ref ${i}-${j}`,
  };
}

/** Call `i`: a candidate batch, about the person every CALLS / ERASE_CALLS calls. */
function seededCall(i: number, start: number): JournalRecord {
  const theirs =
    i % Math.floor(CALLS / ERASE_CALLS) === 0 && i / Math.floor(CALLS / ERASE_CALLS) <= ERASE_CALLS;
  const items = Array.from({ length: 1 + (i % 3) }, (_, j) => candidate(i, j, theirs && j === 0));
  const batchId = `rb_privacy_${i}`;
  const answer = theirs
    ? { batchid: batchId, message: `Candidate ${person.email} already exists` }
    : { batchid: batchId, received: items.length };
  return {
    at: start + i * 1000,
    operation: 'candidates',
    method: 'POST',
    path: '/api/vms/candidates?Client_Org_Id=1001&Vendor_Org_Id=9001',
    url: null,
    clientOrgId: 1001,
    vendorOrgId: 9001,
    itemCount: items.length,
    batchId,
    idempotencyKey: `privacy-key-${i}`,
    replayed: false,
    status: 202,
    upstreamStatus: 202,
    outcome: 'forwarded',
    errorCode: null,
    failure: null,
    latencyMs: 20,
    replayOf: null,
    unchecked: false,
    requestBody: body(JSON.stringify(items)),
    responseBody: body(JSON.stringify(answer)),
    responseHeaders: { 'content-type': 'application/json' },
  };
}

async function seed(portalDb: string): Promise<number> {
  const started = performance.now();
  const stores = await openPortalStores({ portalDb, databaseUrl: null });
  const start = Date.now() - CALLS * 1000;
  for (let from = 1; from <= CALLS; from += WRITE_BATCH) {
    const batch = Array.from({ length: Math.min(WRITE_BATCH, CALLS - from + 1) }, (_, k) =>
      seededCall(from + k, start),
    );
    await stores.journal.write(batch, []);
  }
  await stores.close();
  return performance.now() - started;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? Number.NaN;

/**
 * A process that asks `url` every PROBE_EVERY_MS and writes each answer's wait with the time it
 * was sent; `stop` ends it and returns the waits of the probes that overlapped `from` to `to`.
 */
function startProber(url: string) {
  const script = `
    const url = process.argv[1];
    const every = Number(process.argv[2]);
    let going = true;
    process.stdin.on('end', () => (going = false));
    process.stdin.resume();
    (async () => {
      while (going) {
        const sentAt = Date.now();
        const sent = performance.now();
        const answer = await fetch(url);
        await answer.arrayBuffer();
        const waited = performance.now() - sent;
        process.stdout.write(sentAt + ' ' + waited + '\\n');
        const rest = every - (performance.now() - sent);
        if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
      }
    })();
  `;
  const child = spawn(process.execPath, ['-e', script, url, String(PROBE_EVERY_MS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    async stop(from: number, to: number): Promise<number[]> {
      child.stdin.end();
      await exited;
      return (
        out
          .split('\n')
          .filter((line) => line.length > 0)
          .map((line) => line.split(' ').map(Number) as [number, number])
          // Every probe whose wait overlapped the erasure.
          .filter(([sentAt, waited]) => sentAt <= to && sentAt + waited >= from)
          .map(([, waited]) => waited)
      );
    },
  };
}

export async function runPrivacyBench(): Promise<{ withinBudget: boolean }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-privacy-'));
  const portalDb = join(dir, 'portal.db');
  const upstream = await startCaptureUpstream();
  try {
    const seedMs = await seed(portalDb);
    const portal = await startTestPortal(testConfig(upstream.url, { PORTAL_DB: portalDb }));
    try {
      const prober = startProber(`${portal.url}/api/health/live`);
      // A few probes before, so that the first ones are not the connection's set-up alone.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const from = Date.now();
      const started = performance.now();
      const answer = await fetch(`${portal.url}/api/admin/privacy/erase`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: portal.url },
        body: JSON.stringify({
          email: person.email,
          name: `${person.first} ${person.last}`,
          reason: 'Bench: an erasure on request',
        }),
      });
      const text = await answer.text();
      const eraseMs = performance.now() - started;
      const probes = await prober.stop(from, Date.now());
      if (answer.status !== 200) throw new Error(`erase answered ${answer.status}: ${text}`);
      const erased = subjectErasedSchema.parse(JSON.parse(text));
      const sorted = [...probes].sort((a, b) => a - b);
      const max = sorted.at(-1) ?? Number.NaN;
      const p99 = percentile(sorted, 99);
      const allErased = erased.counts.journal === ERASE_CALLS;
      const withinBudget = eraseMs < BUDGET_MS && max <= PROBE_BUDGET_MS && allErased;
      console.log(
        `\nOne person erased from ${CALLS.toLocaleString('en')} journal calls (${ERASE_CALLS} about them; seeded in ${(seedMs / 1000).toFixed(1)} s)\n`,
      );
      console.log(
        formatTable([
          {
            measure: 'erasure',
            value: `${(eraseMs / 1000).toFixed(2)} s`,
            budget: `< ${BUDGET_MS / 1000} s`,
          },
          {
            measure: 'calls rewritten',
            value: String(erased.counts.journal ?? 0),
            budget: String(ERASE_CALLS),
          },
          { measure: 'probes', value: String(probes.length), budget: `every ${PROBE_EVERY_MS} ms` },
          { measure: 'probe p99', value: `${p99.toFixed(1)} ms`, budget: '' },
          {
            measure: 'probe max',
            value: `${max.toFixed(1)} ms`,
            budget: `<= ${PROBE_BUDGET_MS} ms`,
          },
        ]),
      );
      console.log(withinBudget ? 'privacy: within budget' : 'privacy: BUDGET MISSED');
      return { withinBudget };
    } finally {
      await portal.close();
    }
  } finally {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { withinBudget } = await runPrivacyBench();
  if (!withinBudget) process.exitCode = 1;
}
