/**
 * The server's watch of accepted batches (decision 050): 1,000 batches of one requisition each,
 * sent through the built portal to the sandbox at processing delay 0 (its own process), then
 * left to the watch until every one has settled. The sandbox takes 50 ms over each results call,
 * as a VMS takes its time, so that calls overlap and the cap on those in flight is put to work. The peer is what a user would run instead: the
 * same 1,000 batches sent through a portal that does not watch (WATCH=off), and their results
 * read by a client through the proxy, four at a time (the watch's default concurrency), each
 * batch asked again a second later while pending: the browser's polling, without a browser.
 *
 * Measured per leg: the portal's CPU time (from /proc) from the first send to the last batch
 * settled, per batch; the results calls that reached the VMS, per batch and per second; and the
 * most results calls in flight at once at the VMS (the sandbox counts them). Budgets: every batch
 * settles in both legs, and the watch never has more than WATCH_CONCURRENCY results calls in
 * flight. The CPU per batch is reported beside the peer's, with their ratio, per round and as
 * the median of interleaved rounds (which leg goes first alternating).
 * Standalone: `npx tsx bench/watch.ts`; in `npm run bench` as `watch`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { z } from 'zod';
import { sandboxDemo } from '@/sandbox';
import { requisitionInsert } from '@/test-support/test-data';
import { buildServer } from '../scripts/build-cli';
import { formatTable } from './measure';
import { askTimings, cpuMs, forkHelper, pidsOf, startPortalProcess, stop } from './processes';

const BATCHES = 1000;
const CONCURRENCY = 4;
/** Sends in flight at once while the batches are sent. */
const SENDERS = 8;
const ROUNDS = 3;
/** Each results call's time at the VMS: long enough that the calls overlap. */
const RESULTS_DELAY_MS = 50;
/** The built server goes inside the repository, where it finds its packages. */
const root = fileURLToPath(new URL('..', import.meta.url));
const metricsToken = 'bench-watch-metrics-token';
const orgs = `Client_Org_Id=${sandboxDemo.clientOrgIds[0]}&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`;
const acceptedSchema = z.object({ batchid: z.string() });
const rowsSchema = z.array(z.object({ Status: z.string() }).loose());

interface LegResult {
  /** From the first send to the last batch settled. */
  ms: number;
  /** The portal's CPU time over the same span. */
  cpuMs: number;
  settled: number;
  resultsCalls: number;
  maxInFlight: number;
  /** Results calls per second at the VMS, from the first to the last. */
  callsPerSecond: number;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const item = items[next] as T;
        next += 1;
        await work(item);
      }
    }),
  );
}

async function sendAll(url: string, round: number, leg: string): Promise<string[]> {
  const batchIds: string[] = [];
  const indexes = Array.from({ length: BATCHES }, (_, index) => index);
  await inParallel(indexes, SENDERS, async (index) => {
    const response = await fetch(`${url}/api/vms/requisitionimport?${orgs}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify([
        requisitionInsert({ clientinternalreq: `WATCH-${leg}-${round}-${index}` }),
      ]),
    });
    if (response.status !== 202) throw new Error(`a send was answered ${response.status}`);
    batchIds.push(acceptedSchema.parse(await response.json()).batchid);
  });
  return batchIds;
}

/** The watch's figures, read from the portal's metrics. */
async function watchFigures(url: string): Promise<{ watching: number; settled: number }> {
  const text = await (
    await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
  ).text();
  const figure = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    watching: figure(/^vms_portal_watches_watching (\S+)$/m),
    settled: figure(
      /^vms_portal_watch_checks_total\{connection="default",outcome="settled"\} (\S+)$/m,
    ),
  };
}

async function runLeg(main: string, dir: string, leg: 'watch' | 'peer', round: number) {
  const sandbox = await forkHelper('./load-sandbox.ts', {
    BENCH_SANDBOX_DB: join(dir, `sandbox-${leg}-${round}.db`),
    BENCH_RESULTS_DELAY_MS: String(RESULTS_DELAY_MS),
  });
  const portal = await startPortalProcess(
    main,
    `http://127.0.0.1:${sandbox.port}`,
    { portalDb: join(dir, `portal-${leg}-${round}.db`) },
    {
      WATCH: leg === 'watch' ? 'on' : 'off',
      WATCH_CONCURRENCY: String(CONCURRENCY),
      METRICS_TOKEN: metricsToken,
    },
  );
  try {
    const pids = pidsOf([portal.child]);
    const cpuBefore = cpuMs(pids);
    const start = performance.now();
    const batchIds = await sendAll(portal.url, round, leg);
    let settled = 0;
    if (leg === 'watch') {
      for (;;) {
        const figures = await watchFigures(portal.url);
        settled = figures.settled;
        if (figures.watching === 0 && settled >= BATCHES) break;
        if (performance.now() - start > 600_000) break;
        await pause(500);
      }
    } else {
      await inParallel(batchIds, CONCURRENCY, async (batchId) => {
        for (;;) {
          const answer = await fetch(
            `${portal.url}/api/vms/requisitionresults?${orgs}&batchid=${batchId}`,
          );
          const rows = rowsSchema.parse(await answer.json());
          if (rows.length > 0 && rows.every((row) => row.Status !== 'Pending')) break;
          await pause(1000);
        }
        settled += 1;
      });
    }
    const ms = performance.now() - start;
    const cpu = cpuMs(pids) - cpuBefore;
    const { results } = await askTimings(sandbox.child);
    const spanSeconds = Math.max(0.001, (results.lastAt - results.firstAt) / 1000);
    return {
      ms,
      cpuMs: cpu,
      settled,
      resultsCalls: results.count,
      maxInFlight: results.maxInFlight,
      callsPerSecond: results.count / spanSeconds,
    } satisfies LegResult;
  } finally {
    await stop(portal.child);
    await stop(sandbox.child);
  }
}

export async function runWatchBench(): Promise<{ withinBudget: boolean }> {
  mkdirSync(join(root, 'build'), { recursive: true });
  const dir = mkdtempSync(join(root, 'build', '.bench-watch-'));
  const legs: Record<'watch' | 'peer', LegResult[]> = { watch: [], peer: [] };
  try {
    const main = await buildServer(join(dir, 'server'));
    for (let round = 0; round < ROUNDS; round += 1) {
      const order = round % 2 === 0 ? (['watch', 'peer'] as const) : (['peer', 'watch'] as const);
      for (const leg of order) legs[leg].push(await runLeg(main, dir, leg, round));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const perBatch = (leg: LegResult) => leg.cpuMs / BATCHES;
  const ratios = legs.watch.map((leg, round) => {
    const peer = legs.peer[round];
    return peer ? perBatch(leg) / perBatch(peer) : Number.NaN;
  });
  const row = (name: string, results: LegResult[]) => ({
    leg: name,
    'median s': (median(results.map((leg) => leg.ms)) / 1000).toFixed(1),
    'CPU ms / batch': median(results.map(perBatch)).toFixed(2),
    'results calls / batch': median(results.map((leg) => leg.resultsCalls / BATCHES)).toFixed(2),
    'calls / s': median(results.map((leg) => leg.callsPerSecond)).toFixed(0),
    'most in flight': Math.max(...results.map((leg) => leg.maxInFlight)),
    settled: Math.min(...results.map((leg) => leg.settled)),
  });
  console.log(
    `\nBatch watch: ${BATCHES} one-item batches sent, then settled (sandbox, no processing delay, ${RESULTS_DELAY_MS} ms per results call), ${ROUNDS} rounds`,
  );
  console.log(
    formatTable([
      row(`the portal's watch (WATCH_CONCURRENCY=${CONCURRENCY})`, legs.watch),
      row(`a client polling through the proxy, ${CONCURRENCY} at a time`, legs.peer),
    ]),
  );
  const allSettled = [...legs.watch, ...legs.peer].every((leg) => leg.settled >= BATCHES);
  const held = legs.watch.every((leg) => leg.maxInFlight <= CONCURRENCY);
  console.log(
    `The portal's CPU per batch, watch / peer, each round: ${ratios.map((value) => value.toFixed(2)).join(' ')} (median ${median(ratios).toFixed(2)}).`,
  );
  console.log(
    `Budget: every batch settles in both legs → ${allSettled ? 'met' : 'MISSED'}; the watch's results calls in flight at the VMS ≤ ${CONCURRENCY} → ${held ? 'met' : 'MISSED'}.`,
  );
  return { withinBudget: allSettled && held };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runWatchBench();
  if (!result.withinBudget) process.exitCode = 1;
}
