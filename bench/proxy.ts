/**
 * Proxy benchmark: POST requisitionimport with a 100-item body (~30 KB) over loopback with 10
 * connections, sent (a) straight to a minimal upstream, (b) through our signing proxy, with and
 * without the call journal, (c) through the plain signing peer (proxy-peer.ts: a minimal correct
 * signing proxy written with Fastify and undici; it reads the body, parses it, checks it is an
 * array of objects, signs and forwards), (d) through the promises' floor (proxy-floor.ts: that
 * peer plus a durable key, a fingerprint, a log line, the audit event and a journal indexed as
 * the portal's is), with and without its journal, (e) through a bare Node `http` pass-through
 * (proxy-bare.ts), and (f) through nginx as a plain pass-through, stock and tuned (skipped, with
 * a message, when nginx is absent). Every request carries a new Idempotency-Key and a new batch
 * body, as recruiters' batches do, so the durable key and the journal's storing of each new body
 * are in the figures.
 *
 * The one reference: the plain signing peer, the proxy a user would run instead of the portal.
 * It does not change again, and the budgets are not moved to another reference when missed
 * (decision 048): with the journal on, CPU per request ≤ 2.5 × the peer's, throughput ≥ 0.5 ×,
 * p99 ≤ 2 ×, and the portal's own journal on / off ≤ 1.25 × CPU per request. Everything else
 * (the floor, the bare pass-through, nginx) is printed for context and gates nothing.
 *
 * The upstream and the proxy each run in their own process, as nginx does, so the load generator
 * (this process) never shares an event loop with what it measures. The legs are measured in
 * interleaved rounds and the medians reported, with each round's ratio to the peer (the spread),
 * so load from anything else running on the machine falls on every leg alike.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { formatTable } from './measure';
import { runJournalListBench, type JournalListResult } from './proxy-journal';
import { findNginx, startNginx, type RunningNginx } from './proxy-nginx';

const CONNECTIONS = 10;
const WARMUP_SECONDS = 2;
const ROUNDS = 5;
const ROUND_SECONDS = 3;
const ITEMS = 100;
/**
 * The budgets, against the plain signing peer measured in the same rounds (decision 048): the
 * portal, journal on, at most 2.5 × the peer's CPU per request, at least 0.5 × its throughput and
 * at most 2 × its p99. The peer keeps none of the portal's promises (a durable key, the journal,
 * the log and audit lines); these ratios are what a user pays for them, and the reference stays
 * the peer whatever the portal costs.
 */
const CPU_TARGET = 2.5;
const THROUGHPUT_TARGET = 0.5;
const P99_TARGET = 2;
/** The call journal, a new body every request: CPU per request on / off at most 1.25 ×. */
const JOURNAL_CPU_TARGET = 1.25;

/**
 * Which of the four budgets a proxy's figures against the peer meet: written once, for the
 * portal (the gate) and for the promises' floor (context).
 */
function budgetsMet(figures: { cpu: number; throughput: number; p99: number; journal: number }) {
  return {
    cpu: figures.cpu <= CPU_TARGET,
    throughput: figures.throughput >= THROUGHPUT_TARGET,
    p99: figures.p99 <= P99_TARGET,
    journal: figures.journal <= JOURNAL_CPU_TARGET,
  };
}
/**
 * The journal's cost is a few percent, less than the swing of a loaded machine between two
 * rounds, so it gets its own phase: the portal with and without it back to back, this many
 * pairs (which goes first alternating), the ratio taken per pair and the median reported.
 * Twelve: with six, single pairs ranged 0.79–1.24 on this 2-core machine and the median of one run
 * moved between 1.02 and 1.14 from run to run with no change to the code.
 */
const JOURNAL_PAIRS = 12;
/**
 * The same bytes sent again (a retry) are stored once: measured the same way, for context (no
 * target). The target is held with a new body every request, the recruiters' case: each body is
 * hashed, compressed, stored and indexed (FTS5 tokenizes ~31 KB).
 */
const JOURNAL_SAME_BODY_PAIRS = 4;
const path = '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001';

export type LegName =
  | 'direct'
  | 'proxy'
  | 'proxy-no-journal'
  | 'signing-peer'
  | 'promises-floor'
  | 'promises-floor-no-journal'
  | 'bare-node'
  | 'nginx'
  | 'nginx-tuned';

export interface LegResult {
  leg: LegName;
  /** Medians over the rounds. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Connection errors, timeouts and non-2xx answers: any of them invalidates the leg. */
  failures: number;
}

export interface ProxyBenchResult {
  direct: LegResult;
  /** The portal as shipped: the call journal on. */
  proxy: LegResult;
  /** The same portal with JOURNAL=off. */
  proxyNoJournal: LegResult;
  /** The minimal correct signing proxy (Fastify + undici): the targets' reference. */
  signingPeer: LegResult;
  /**
   * The signing peer plus the portal's promises done plainly (proxy-floor.ts): a durable key, a
   * fingerprint, a log line and the call journal. What those promises cost whoever builds them.
   */
  promisesFloor: LegResult;
  promisesFloorNoJournal: LegResult;
  /** A bare node:http pass-through with a keep-alive agent: no checks, no signing, no logs. */
  bareNode: LegResult;
  /** nginx as a plain pass-through (stock proxy_pass); null when nginx is not installed. */
  nginx: LegResult | null;
  /** nginx with upstream keep-alive and in-memory bodies: the target's reference; null without nginx. */
  nginxTuned: LegResult | null;
  /** The proxy process's CPU time (user + system) per request, median over the rounds. */
  proxyCpuMicrosPerRequest: number;
  /** The same for the proxy with JOURNAL=off. */
  proxyNoJournalCpuMicrosPerRequest: number;
  /** CPU per request with the journal on / off, per back-to-back pair; the median of the pairs. */
  journalCpuRatio: number;
  journalCpuRatios: number[];
  /** Microseconds of CPU the journal adds per request (median of the pairs' differences). */
  journalAddedMicros: number;
  /** Each pair's CPU per request, journal on and off, in microseconds (for reading the spread). */
  journalPairMicros: { on: number; off: number }[];
  /** The same with one body sent again and again (context, no target). */
  journalSameBodyCpuRatio: number;
  journalSameBodyAddedMicros: number;
  /** The journal's list and search over 100,000 recorded calls (proxy-journal.ts). */
  journalList: JournalListResult;
  /**
   * Calls the portal's journal wrote over the whole run, and those it let go unrecorded (its queue
   * too far behind). Any unrecorded call fails the run: the journal-on figures would then be of a
   * journal that keeps less than it promises, one entry per call.
   */
  journalWritten: number;
  journalUnrecorded: number;
  /** The same for the signing peer and the bare Node pass-through. */
  signingPeerCpuMicrosPerRequest: number;
  promisesFloorCpuMicrosPerRequest: number;
  promisesFloorNoJournalCpuMicrosPerRequest: number;
  bareNodeCpuMicrosPerRequest: number;
  ratios: {
    proxyToDirectThroughput: number;
    bareNodeToDirectThroughput: number;
    proxyToBareNodeThroughput: number;
    nginxToDirectThroughput: number | null;
    nginxTunedToDirectThroughput: number | null;
    proxyToNginxThroughput: number | null;
    proxyToNginxP99: number | null;
    proxyToNginxTunedThroughput: number | null;
    proxyToNginxTunedP99: number | null;
    proxyToBareNodeCpu: number;
    proxyToBareNodeP99: number;
    proxyToPeerThroughput: number;
    proxyToPeerCpu: number;
    proxyToPeerP99: number;
    /** The floor's CPU per request over the peer's: the least the promises cost, as a ratio. */
    floorToPeerCpu: number;
    floorToPeerThroughput: number;
    floorToPeerP99: number;
    proxyToFloorCpu: number;
    /** The floor's journal on / off, per request CPU (medians over the rounds). */
    floorJournalCpu: number;
    proxyToFloorThroughput: number;
    proxyToFloorP99: number;
    /** µs the portal's journal adds a request over µs the floor's adds. */
    journalToFloorJournal: number;
  };
  /** Each round's ratio of the proxy to the peer, in round order: the medians' spread. */
  spread: { cpu: number[]; throughput: number[]; p99: number[] };
  /** The four budgets met against the signing peer, the journal list's, and no failed request. */
  withinBudget: boolean;
  bodyBytes: number;
}

/** ~30 KB: 100 compact requisitions in the wire shape, with the odd non-ASCII character. */
export function benchBody(): string {
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    requesttype: 'I',
    orgid: '1001',
    reqclassid: '101',
    titlerole: `Senior Java Developer ${i + 1}`,
    noofopenings: '2',
    startdate: '2027-01-11',
    clientinternalreq: `BENCH-${String(i + 1).padStart(5, '0')}`,
    hoursunitsperday: '8',
    daysperweek: '5',
    engagementtype: '1',
    shortdescription: 'Developer for the claims platform, Zürich.',
    reqownerid: 'mreyes',
  }));
  return JSON.stringify(items);
}

interface Child {
  child: ChildProcess;
  port: number;
}

function startChild(file: string, env: Record<string, string> = {}): Promise<Child> {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${file} exited early with code ${code}`)));
    child.once('message', (message: unknown) => {
      const port: unknown =
        typeof message === 'object' && message !== null ? Reflect.get(message, 'port') : undefined;
      if (typeof port === 'number' && port > 0) resolve({ child, port });
      else reject(new Error(`${file} did not report its port`));
    });
  });
}

/**
 * Asks a child process one question over its IPC channel ('cpu', 'journal') and resolves with
 * the object it answers under that name; other messages are left to their own listeners.
 */
function ask(child: ChildProcess, question: 'cpu' | 'journal'): Promise<object> {
  return new Promise((resolve) => {
    const read = (message: unknown) => {
      const answer: unknown =
        typeof message === 'object' && message !== null ? Reflect.get(message, question) : null;
      if (!answer || typeof answer !== 'object') return;
      child.off('message', read);
      resolve(answer);
    };
    child.on('message', read);
    child.send(question);
  });
}

/** A child's CPU time so far (user + system), in microseconds. */
async function cpuMicros(child: ChildProcess): Promise<number> {
  const cpu = await ask(child, 'cpu');
  return Number(Reflect.get(cpu, 'user')) + Number(Reflect.get(cpu, 'system'));
}

/** What the portal's journal kept of the calls it was handed, once everything queued is written. */
async function journalKept(portal: ChildProcess): Promise<{ written: number; unrecorded: number }> {
  const journal = await ask(portal, 'journal');
  return {
    written: Number(Reflect.get(journal, 'written')),
    unrecorded: Number(Reflect.get(journal, 'unrecorded')),
  };
}

/**
 * Every leg gets the same requests: the browser's POST, with a new Idempotency-Key each (each is
 * a new batch), so the proxy does the durable key bookkeeping it does for real sends.
 */
/** The first reference in benchBody, replaced per request when every body must be new. */
const firstReference = 'BENCH-00001';
let bodiesMade = 0;

function load(
  port: number,
  body: string,
  seconds: number,
  distinct = false,
): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        body,
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'idempotency-key': randomUUID() },
          // Same length, new bytes: a batch the journal has never seen, to store and index.
          ...(distinct
            ? {
                body: body.replace(
                  firstReference,
                  `B${String((bodiesMade += 1)).padStart(firstReference.length - 1, '0')}`,
                ),
              }
            : {}),
        }),
      },
    ],
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

interface Target {
  leg: LegName;
  port: number;
  samples: autocannon.Result[];
}

function summarise({ leg, samples }: Target): LegResult {
  return {
    leg,
    requestsPerSecond: Math.round(median(samples.map((s) => s.requests.average))),
    p50Ms: median(samples.map((s) => s.latency.p50)),
    p99Ms: median(samples.map((s) => s.latency.p99)),
    requests: samples.reduce((sum, s) => sum + s.requests.total, 0),
    failures: samples.reduce((sum, s) => sum + s.errors + s.timeouts + s.non2xx, 0),
  };
}

export async function runProxyBench(): Promise<ProxyBenchResult> {
  const body = benchBody();
  const bodyBytes = Buffer.byteLength(body);
  const dir = mkdtempSync(join(tmpdir(), 'proxy-bench-'));
  const children: ChildProcess[] = [];
  const nginxes: RunningNginx[] = [];
  console.log(
    `proxy benchmark: POST requisitionimport, ${ITEMS} items (${(bodyBytes / 1024).toFixed(1)} KB), ` +
      `${CONNECTIONS} connections, loopback; ${WARMUP_SECONDS} s warm-up per leg, then ${ROUNDS} ` +
      `interleaved rounds of ${ROUND_SECONDS} s per leg (medians shown).`,
  );
  console.log(
    'processes: autocannon here; the upstream (node:http), our proxy (buildPortal, logging ' +
      'to a file) and the bare Node pass-through each in a child process; nginx with one ' +
      'worker, logging to a file.',
  );

  try {
    const upstream = await startChild('./proxy-upstream.ts');
    children.push(upstream.child);
    /** A proxy in front of the upstream, in a child process; `log` names its log file. */
    const proxyChild = async (file: string, log?: string, env: Record<string, string> = {}) => {
      const started = await startChild(file, {
        BENCH_UPSTREAM_URL: `http://127.0.0.1:${upstream.port}/`,
        ...(log ? { BENCH_LOG_FILE: join(dir, log) } : {}),
        ...env,
      });
      children.push(started.child);
      return started;
    };
    const journalOff = { BENCH_JOURNAL: 'off' };
    const portal = await proxyChild('./proxy-portal.ts', 'portal.log');
    const portalNoJournal = await proxyChild(
      './proxy-portal.ts',
      'portal-no-journal.log',
      journalOff,
    );
    const bare = await proxyChild('./proxy-bare.ts');
    const peer = await proxyChild('./proxy-peer.ts');
    const floor = await proxyChild('./proxy-floor.ts', 'floor.log');
    const floorNoJournal = await proxyChild('./proxy-floor.ts', 'floor-no-journal.log', journalOff);

    // The two portals side by side, so each round measures them back to back.
    const targets: Target[] = [
      { leg: 'direct', port: upstream.port, samples: [] },
      { leg: 'proxy', port: portal.port, samples: [] },
      { leg: 'proxy-no-journal', port: portalNoJournal.port, samples: [] },
      { leg: 'signing-peer', port: peer.port, samples: [] },
      { leg: 'promises-floor', port: floor.port, samples: [] },
      { leg: 'promises-floor-no-journal', port: floorNoJournal.port, samples: [] },
      { leg: 'bare-node', port: bare.port, samples: [] },
    ];
    const measuredChild: Partial<Record<LegName, ChildProcess>> = {
      proxy: portal.child,
      'proxy-no-journal': portalNoJournal.child,
      'signing-peer': peer.child,
      'promises-floor': floor.child,
      'promises-floor-no-journal': floorNoJournal.child,
      'bare-node': bare.child,
    };
    const binary = findNginx();
    if (binary) {
      for (const variant of ['stock', 'tuned'] as const) {
        const nginx = await startNginx(binary, dir, variant, upstream.port);
        nginxes.push(nginx);
        targets.push({
          leg: variant === 'stock' ? 'nginx' : 'nginx-tuned',
          port: nginx.port,
          samples: [],
        });
      }
    } else {
      console.log(
        'nginx not found: skipping the nginx legs (install the Debian package "nginx" to run them).',
      );
    }

    for (const target of targets) await load(target.port, body, WARMUP_SECONDS, true);
    const cpuPerRequest: Partial<Record<LegName, number[]>> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      // Rotate the order so no leg always runs right after the same neighbour.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      for (const target of order) {
        if (!target) continue;
        const child = measuredChild[target.leg];
        const before = child ? await cpuMicros(child) : 0;
        const result = await load(target.port, body, ROUND_SECONDS, true);
        target.samples.push(result);
        if (child) {
          const perRequest = ((await cpuMicros(child)) - before) / result.requests.total;
          (cpuPerRequest[target.leg] ??= []).push(perRequest);
        }
      }
    }

    const legs = targets.map(summarise);
    const find = (leg: LegName) => legs.find((l) => l.leg === leg) ?? null;
    const direct = find('direct');
    const proxy = find('proxy');
    const proxyNoJournal = find('proxy-no-journal');
    const bareNode = find('bare-node');
    const signingPeer = find('signing-peer');
    const promisesFloor = find('promises-floor');
    const promisesFloorNoJournal = find('promises-floor-no-journal');
    if (
      !direct ||
      !proxy ||
      !proxyNoJournal ||
      !bareNode ||
      !signingPeer ||
      !promisesFloor ||
      !promisesFloorNoJournal
    ) {
      throw new Error('every leg but nginx always runs');
    }
    const nginx = find('nginx');
    const nginxTuned = find('nginx-tuned');
    const ratio = (a: number, b: number | undefined) => (b ? round2(a / b) : null);

    // The journal's cost: pairs measured back to back, so load on the machine falls on both.
    async function journalPairs(pairs: number, distinct: boolean) {
      const ratios: number[] = [];
      const perRequest: number[] = [];
      const micros: { on: number; off: number }[] = [];
      for (let pair = 0; pair < pairs; pair += 1) {
        const legs = [portal, portalNoJournal];
        if (pair % 2 === 1) legs.reverse();
        const cpu = new Map<Child, number>();
        for (const leg of legs) {
          const before = await cpuMicros(leg.child);
          const result = await load(leg.port, body, ROUND_SECONDS, distinct);
          cpu.set(leg, ((await cpuMicros(leg.child)) - before) / result.requests.total);
        }
        const on = cpu.get(portal) ?? 0;
        const off = cpu.get(portalNoJournal) ?? 1;
        ratios.push(on / Math.max(off, 1));
        perRequest.push(on - off);
        micros.push({ on: Math.round(on), off: Math.round(off) });
      }
      return { ratios, addedMicros: Math.round(median(perRequest)), micros };
    }
    const distinct = await journalPairs(JOURNAL_PAIRS, true);
    const sameBody = await journalPairs(JOURNAL_SAME_BODY_PAIRS, false);
    const journalRatios = distinct.ratios;
    const kept = await journalKept(portal.child);
    const journalList = await runJournalListBench();

    const result: ProxyBenchResult = {
      direct,
      proxy,
      proxyNoJournal,
      signingPeer,
      promisesFloor,
      promisesFloorNoJournal,
      bareNode,
      nginx,
      nginxTuned,
      proxyCpuMicrosPerRequest: Math.round(median(cpuPerRequest.proxy ?? [])),
      proxyNoJournalCpuMicrosPerRequest: Math.round(
        median(cpuPerRequest['proxy-no-journal'] ?? []),
      ),
      journalCpuRatio: round2(median(journalRatios)),
      journalCpuRatios: journalRatios.map(round2),
      journalAddedMicros: distinct.addedMicros,
      journalPairMicros: distinct.micros,
      journalSameBodyCpuRatio: round2(median(sameBody.ratios)),
      journalSameBodyAddedMicros: sameBody.addedMicros,
      journalList,
      journalWritten: kept.written,
      journalUnrecorded: kept.unrecorded,
      signingPeerCpuMicrosPerRequest: Math.round(median(cpuPerRequest['signing-peer'] ?? [])),
      promisesFloorCpuMicrosPerRequest: Math.round(median(cpuPerRequest['promises-floor'] ?? [])),
      promisesFloorNoJournalCpuMicrosPerRequest: Math.round(
        median(cpuPerRequest['promises-floor-no-journal'] ?? []),
      ),
      bareNodeCpuMicrosPerRequest: Math.round(median(cpuPerRequest['bare-node'] ?? [])),
      ratios: {
        proxyToDirectThroughput: round2(proxy.requestsPerSecond / direct.requestsPerSecond),
        bareNodeToDirectThroughput: round2(bareNode.requestsPerSecond / direct.requestsPerSecond),
        proxyToBareNodeThroughput: round2(proxy.requestsPerSecond / bareNode.requestsPerSecond),
        nginxToDirectThroughput: nginx
          ? round2(nginx.requestsPerSecond / direct.requestsPerSecond)
          : null,
        nginxTunedToDirectThroughput: nginxTuned
          ? round2(nginxTuned.requestsPerSecond / direct.requestsPerSecond)
          : null,
        proxyToNginxThroughput: ratio(proxy.requestsPerSecond, nginx?.requestsPerSecond),
        proxyToNginxP99: ratio(proxy.p99Ms, nginx?.p99Ms),
        proxyToNginxTunedThroughput: ratio(proxy.requestsPerSecond, nginxTuned?.requestsPerSecond),
        proxyToNginxTunedP99: ratio(proxy.p99Ms, nginxTuned?.p99Ms),
        proxyToBareNodeCpu: 0,
        proxyToBareNodeP99: round2(proxy.p99Ms / Math.max(bareNode.p99Ms, 1)),
        proxyToPeerThroughput: round2(proxy.requestsPerSecond / signingPeer.requestsPerSecond),
        proxyToPeerCpu: 0,
        proxyToPeerP99: round2(proxy.p99Ms / Math.max(signingPeer.p99Ms, 1)),
        floorToPeerCpu: 0,
        floorToPeerThroughput: round2(
          promisesFloor.requestsPerSecond / signingPeer.requestsPerSecond,
        ),
        floorToPeerP99: round2(promisesFloor.p99Ms / Math.max(signingPeer.p99Ms, 1)),
        proxyToFloorCpu: 0,
        floorJournalCpu: 0,
        proxyToFloorThroughput: round2(proxy.requestsPerSecond / promisesFloor.requestsPerSecond),
        proxyToFloorP99: round2(proxy.p99Ms / Math.max(promisesFloor.p99Ms, 1)),
        journalToFloorJournal: 0,
      },
      spread: { cpu: [], throughput: [], p99: [] },
      withinBudget: false,
      bodyBytes,
    };
    const clean = legs.every((leg) => leg.failures === 0);
    result.ratios.proxyToBareNodeCpu = round2(
      result.proxyCpuMicrosPerRequest / Math.max(result.bareNodeCpuMicrosPerRequest, 1),
    );
    result.ratios.proxyToPeerCpu = round2(
      result.proxyCpuMicrosPerRequest / Math.max(result.signingPeerCpuMicrosPerRequest, 1),
    );
    result.ratios.floorToPeerCpu = round2(
      result.promisesFloorCpuMicrosPerRequest / Math.max(result.signingPeerCpuMicrosPerRequest, 1),
    );
    result.ratios.proxyToFloorCpu = round2(
      result.proxyCpuMicrosPerRequest / Math.max(result.promisesFloorCpuMicrosPerRequest, 1),
    );
    result.ratios.floorJournalCpu = round2(
      result.promisesFloorCpuMicrosPerRequest /
        Math.max(result.promisesFloorNoJournalCpuMicrosPerRequest, 1),
    );
    const floorJournalAdded =
      result.promisesFloorCpuMicrosPerRequest - result.promisesFloorNoJournalCpuMicrosPerRequest;
    result.ratios.journalToFloorJournal = round2(
      result.journalAddedMicros / Math.max(floorJournalAdded, 1),
    );
    const r = result.ratios;
    // Each round's ratio to the peer (the legs of a round ran minutes apart at most): the spread
    // beside the medians the budgets are held on.
    const proxyTarget = targets.find((t) => t.leg === 'proxy');
    const peerTarget = targets.find((t) => t.leg === 'signing-peer');
    const roundRatios = (of: (sample: autocannon.Result) => number) =>
      (proxyTarget?.samples ?? []).map((sample, i) => {
        const peerSample = peerTarget?.samples[i];
        return peerSample ? round2(of(sample) / Math.max(of(peerSample), 1e-9)) : 0;
      });
    result.spread = {
      cpu: (cpuPerRequest.proxy ?? []).map((micros, i) =>
        round2(micros / Math.max(cpuPerRequest['signing-peer']?.[i] ?? 1, 1)),
      ),
      throughput: roundRatios((sample) => sample.requests.average),
      p99: roundRatios((sample) => sample.latency.p99),
    };
    const {
      cpu: cpuMet,
      throughput: throughputMet,
      p99: p99Met,
      journal: journalMet,
    } = budgetsMet({
      cpu: r.proxyToPeerCpu,
      throughput: r.proxyToPeerThroughput,
      p99: r.proxyToPeerP99,
      journal: result.journalCpuRatio,
    });
    const journalKeptAll = kept.unrecorded === 0;
    result.withinBudget =
      clean &&
      journalKeptAll &&
      throughputMet &&
      cpuMet &&
      p99Met &&
      journalMet &&
      journalList.withinBudget;
    const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

    console.log(
      formatTable(
        legs.map((leg) => ({
          leg: leg.leg,
          'req/s': leg.requestsPerSecond,
          'p50 ms': leg.p50Ms,
          'p99 ms': leg.p99Ms,
          requests: leg.requests,
          failures: leg.failures,
        })),
      ),
    );
    console.log(
      `CPU per request (user + system): proxy ${result.proxyCpuMicrosPerRequest} µs, with ` +
        `JOURNAL=off ${result.proxyNoJournalCpuMicrosPerRequest} µs, signing peer ` +
        `${result.signingPeerCpuMicrosPerRequest} µs, bare Node pass-through ` +
        `${result.bareNodeCpuMicrosPerRequest} µs`,
    );
    const range = (values: number[]) =>
      `${Math.min(...values)}–${Math.max(...values)} (rounds: ${values.join(', ')})`;
    console.log(
      `budgets, proxy (journal on) / plain signing peer, medians of ${ROUNDS} interleaved rounds: ` +
        `CPU per request ${r.proxyToPeerCpu} (≤ ${CPU_TARGET}): ${verdict(cpuMet)}, per round ` +
        `${range(result.spread.cpu)}; throughput ${r.proxyToPeerThroughput} (≥ ${THROUGHPUT_TARGET}): ` +
        `${verdict(throughputMet)}, per round ${range(result.spread.throughput)}; p99 ` +
        `${r.proxyToPeerP99} (≤ ${P99_TARGET}): ${verdict(p99Met)}, per round ${range(result.spread.p99)}`,
    );
    console.log(
      `call journal, a new batch body every request: CPU per request on / off ` +
        `${result.journalCpuRatio} (≤ ${JOURNAL_CPU_TARGET}): ${verdict(journalMet)}, about ` +
        `${result.journalAddedMicros} µs a request; median of ${JOURNAL_PAIRS} back-to-back pairs, ` +
        `${range(journalRatios.map(round2))}; on/off µs: ` +
        `${result.journalPairMicros.map(({ on, off }) => `${on}/${off}`).join(', ')}`,
    );
    console.log(
      journalKeptAll
        ? `call journal: every call kept (${kept.written} written, none unrecorded)`
        : `call journal: ${kept.unrecorded} calls went UNRECORDED (${kept.written} written): it fell ` +
            'behind, so the journal-on figures are of a journal that keeps less than it promises',
    );
    console.log(
      `call journal with one body sent again and again (context): on / off ` +
        `${result.journalSameBodyCpuRatio} (pairs: ${sameBody.ratios.map(round2).join(', ')}), ` +
        `about ${result.journalSameBodyAddedMicros} µs a request`,
    );
    console.log(
      `throughput / direct: proxy ${r.proxyToDirectThroughput}, bare Node ` +
        `${r.bareNodeToDirectThroughput}, nginx stock ${r.nginxToDirectThroughput ?? '-'}, ` +
        `nginx tuned ${r.nginxTunedToDirectThroughput ?? '-'} (context)`,
    );
    console.log(
      `the promises' floor (context, no budget: the peer plus a durable key, a fingerprint, a log ` +
        `line, the audit event and a journal indexed as the portal's, done plainly): CPU per request ` +
        `${result.promisesFloorCpuMicrosPerRequest} µs, ${result.promisesFloorNoJournalCpuMicrosPerRequest} µs ` +
        `without its journal (journal on / off ${r.floorJournalCpu}); to the peer: CPU ` +
        `${r.floorToPeerCpu}, throughput ${r.floorToPeerThroughput}, p99 ${r.floorToPeerP99}; the ` +
        `proxy to it: CPU ${r.proxyToFloorCpu}, throughput ${r.proxyToFloorThroughput}, p99 ` +
        `${r.proxyToFloorP99}, journal's added µs ${r.journalToFloorJournal} × its`,
    );
    // Whether the plainest proxy keeping the same promises misses a budget too: one it misses asks
    // less than the promises cost whoever builds them, and no work on the portal's build meets it.
    const floorMet = budgetsMet({
      cpu: r.floorToPeerCpu,
      throughput: r.floorToPeerThroughput,
      p99: r.floorToPeerP99,
      journal: r.floorJournalCpu,
    });
    const floorMisses = [
      floorMet.cpu ? null : `CPU ${r.floorToPeerCpu} (≤ ${CPU_TARGET})`,
      floorMet.throughput ? null : `throughput ${r.floorToPeerThroughput} (≥ ${THROUGHPUT_TARGET})`,
      floorMet.p99 ? null : `p99 ${r.floorToPeerP99} (≤ ${P99_TARGET})`,
      floorMet.journal ? null : `journal on / off ${r.floorJournalCpu} (≤ ${JOURNAL_CPU_TARGET})`,
    ].filter((miss) => miss !== null);
    console.log(
      floorMisses.length > 0
        ? `the promises' floor misses these budgets as well: ${floorMisses.join(', ')}; they ask ` +
            'less than a durable key and a searchable journal entry a call cost, done plainly'
        : "the promises' floor meets every budget: what the portal misses is its own build's cost",
    );
    console.log(
      `proxy / bare Node pass-through (context): throughput ${r.proxyToBareNodeThroughput}, ` +
        `CPU per request ${r.proxyToBareNodeCpu}, p99 ${r.proxyToBareNodeP99}`,
    );
    if (nginx && nginxTuned) {
      console.log(
        `proxy / nginx (context): stock throughput ${r.proxyToNginxThroughput}, p99 ${r.proxyToNginxP99}; ` +
          `tuned throughput ${r.proxyToNginxTunedThroughput}, p99 ${r.proxyToNginxTunedP99}`,
      );
    }
    if (!clean) console.log('Some requests failed: the figures above are not valid.');
    return result;
  } finally {
    for (const nginx of nginxes) nginx.stop();
    for (const child of children) if (child.exitCode === null) child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runProxyBench();
  if (!result.withinBudget) process.exitCode = 1;
}
