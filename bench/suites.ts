/**
 * QA suites (decision 038): a 500-case suite run by the portal, against its peer, the same 500
 * items sent as a plain batch through the proxy and their results read until none is Pending,
 * both against the embedded sandbox with no processing delay. The suite's leg is timed from its
 * POST /api/suite-runs to the run read back finished (the server runs it, compares it with the
 * run before and keeps it); the peer's from its POST to its last results read. Both read results
 * on the same schedule (the domain's resultsPollDelay), so the ratio is what the suite machinery
 * costs, not a different wait. Target: the suite in at most 1.2 × the peer's time, measured in
 * the same run: the two back to back in each round (which goes first alternating), the ratio
 * taken per round and the median of the rounds' ratios held to the target, so load from anything
 * else on the machine falls on both legs of a round alike.
 * Standalone: `npx tsx bench/suites.ts`; in `npm run bench` as `suites`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { resolveItem, resultsPollDelay, type Suite } from '@/domain/suite';
import { suiteRunSchema } from '@/domain/suite-run';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { formatTable } from './measure';

const CASES = 500;
/** Rounds after a warm-up one: on a loaded 2-core machine single rounds range widely. */
const ROUNDS = 11;
const BUDGET_RATIO = 1.2;

const acceptedSchema = z.object({ batchid: z.string() });
const rowsSchema = z.array(z.object({ Status: z.string() }).loose());

/** 500 independent requisition Inserts, each new in every run ({{run.id}}). */
function suiteOf(): Suite {
  return {
    name: 'Bench',
    cases: Array.from({ length: CASES }, (_, i) => ({
      id: `req-${i + 1}`,
      kind: 'requisition' as const,
      item: {
        requesttype: 'I',
        orgid: '1001',
        clientinternalreq: `BENCH-{{run.id}}-${i + 1}`,
        titlerole: `Developer ${i + 1}`,
        noofopenings: '1',
        engagementtype: '1',
        reqclassid: '101',
        hoursunitsperday: '8',
        daysperweek: '5',
        shortdescription: 'Builds the claims API.',
        reqownerid: 'mreyes',
      },
      expect: { status: 'Success' as const },
    })),
  };
}

export interface SuitesBenchResult {
  suiteMs: number[];
  peerMs: number[];
  /** The median of the rounds' suite / peer ratios. */
  ratio: number;
  ratios: number[];
  batches: number;
  withinBudget: boolean;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export async function runSuitesBench(): Promise<SuitesBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-suites-'));
  const portal = await startPortal(
    loadConfig({
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_DB: join(dir, 'sandbox.db'),
      PORTAL_DB: join(dir, 'portal.db'),
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'silent',
    }),
    { sandbox: { processingDelayMs: 0 } },
  );
  const suite = suiteOf();
  const orgs = 'Client_Org_Id=1001&Vendor_Org_Id=9001';
  const json = { 'content-type': 'application/json' };
  let batches = 0;

  async function suiteLeg(): Promise<number> {
    const start = performance.now();
    const started = await fetch(`${portal.url}/api/suite-runs`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ suite }),
    });
    let run = suiteRunSchema.parse(await started.json());
    while (run.status === 'running') {
      const read = await fetch(
        `${portal.url}/api/suite-runs/${run.id}?waitMs=20000&seen=${run.casesDone}`,
      );
      run = suiteRunSchema.parse(await read.json());
    }
    const ms = performance.now() - start;
    if (run.status !== 'finished' || run.failed > 0)
      throw new Error(`the suite run ended ${run.status} with ${run.failed} failed`);
    batches = run.batches;
    return ms;
  }

  async function peerLeg(): Promise<number> {
    const token = randomBytes(4).toString('hex');
    const items = suite.cases.map((entry, index) =>
      resolveItem(entry.item, { runId: token, caseIndex: index, created: new Map() }),
    );
    const start = performance.now();
    const posted = await fetch(`${portal.url}/api/vms/requisitionimport?${orgs}`, {
      method: 'POST',
      headers: { ...json, 'idempotency-key': randomUUID() },
      body: JSON.stringify(items),
    });
    const { batchid } = acceptedSchema.parse(await posted.json());
    const accepted = performance.now();
    let read = { elapsedMs: 0, settled: 0 };
    let before: typeof read | undefined;
    for (let polls = 0; ; polls += 1) {
      const delay = resultsPollDelay({
        polls,
        ...read,
        total: items.length,
        ...(before ? { before } : {}),
      });
      await new Promise((resolve) => setTimeout(resolve, delay));
      const answer = await fetch(
        `${portal.url}/api/vms/requisitionresults?${orgs}&batchid=${batchid}`,
      );
      const rows = rowsSchema.parse(await answer.json());
      const settled = rows.filter((row) => row.Status !== 'Pending').length;
      before = read;
      read = { elapsedMs: performance.now() - accepted, settled };
      if (rows.length === items.length && settled === rows.length) {
        if (rows.some((row) => row.Status !== 'Success'))
          throw new Error('a plain batch item failed');
        return performance.now() - start;
      }
    }
  }

  const suiteMs: number[] = [];
  const peerMs: number[] = [];
  const suiteCpu: number[] = [];
  const peerCpu: number[] = [];
  /** A leg's wall time, and the process's CPU time (portal, sandbox and client) it took. */
  const timed = async (leg: () => Promise<number>): Promise<[number, number]> => {
    const before = process.cpuUsage();
    const ms = await leg();
    const cpu = process.cpuUsage(before);
    return [ms, (cpu.user + cpu.system) / 1000];
  };
  try {
    // A warm-up round, then the measured ones, which leg goes first alternating.
    for (let round = 0; round <= ROUNDS; round += 1) {
      const legs = round % 2 === 0 ? [suiteLeg, peerLeg] : [peerLeg, suiteLeg];
      const times: [number, number][] = [];
      for (const leg of legs) times.push(await timed(leg));
      if (round === 0) continue;
      const [first = [0, 0], second = [0, 0]] = times;
      const [suite, peer] = round % 2 === 0 ? [first, second] : [second, first];
      suiteMs.push(suite[0]);
      peerMs.push(peer[0]);
      suiteCpu.push(suite[1]);
      peerCpu.push(peer[1]);
    }
  } finally {
    await portal.close();
    rmSync(dir, { recursive: true, force: true });
  }

  const ratios = suiteMs.map((ms, round) => ms / (peerMs[round] ?? Number.NaN));
  const ratio = median(ratios);
  const withinBudget = ratio <= BUDGET_RATIO;
  console.log(
    `\nQA suites: a ${CASES}-case suite run by the portal vs the same items as a plain batch through the proxy (sandbox, no processing delay), ${ROUNDS} rounds`,
  );
  console.log(
    formatTable([
      {
        leg: 'suite run (POST → finished, kept, compared)',
        'median ms': median(suiteMs).toFixed(0),
        'best ms': Math.min(...suiteMs).toFixed(0),
        'median CPU ms': median(suiteCpu).toFixed(0),
      },
      {
        leg: 'plain batch (POST → no Pending)',
        'median ms': median(peerMs).toFixed(0),
        'best ms': Math.min(...peerMs).toFixed(0),
        'median CPU ms': median(peerCpu).toFixed(0),
      },
    ]),
  );
  console.log(
    `Each round's suite / plain batch: ${ratios.map((value) => value.toFixed(2)).join(' ')}; CPU (portal, sandbox and client in this process), median of the rounds: ${median(suiteCpu.map((ms, round) => ms / (peerCpu[round] ?? Number.NaN))).toFixed(2)}`,
  );
  console.log(
    `The run sent ${batches} ${batches === 1 ? 'batch' : 'batches'}. Budget: suite ≤ ${BUDGET_RATIO} × plain batch (median of the rounds) → ${withinBudget ? 'met' : 'MISSED'} (ratio ${ratio.toFixed(2)})`,
  );
  return { suiteMs, peerMs, ratio, ratios, batches, withinBudget };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runSuitesBench();
  if (!result.withinBudget) process.exitCode = 1;
}
