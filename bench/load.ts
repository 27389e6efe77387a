/**
 * Load benchmark (`BENCH_ONLY=load npm run bench`): simulated recruiters sending 100-item
 * requisition batches of valid items, each polling its results as the browser does until nothing
 * is Pending and then sending the next, all on loopback against the sandbox VMS at processing
 * delay 0 (in its own process, a new one for each leg). Legs, one after the other:
 *
 * - direct: the users sign their own calls and send them straight to the sandbox (the floor);
 * - bare: the same, through a bare Node `http` pass-through (proxy-bare.ts);
 * - peer: through a minimal signing proxy that keeps none of the portal's promises (proxy-peer.ts);
 * - portal: through one portal process (the built server, SQLite, sign-in on, journal on);
 * - portals-2: through two portal processes on one PostgreSQL, users spread over both, and each
 *   resend sent to the other process than the first send.
 *
 * On the portal legs a share of the users resend each batch with the same Idempotency-Key
 * (load-users.ts), so "sent twice" is exercised; every item's ClientInternalReq is unique, and the
 * sandbox's own database is read after each leg to count the copies of each that arrived.
 * Budgets, on the portal legs: 0 errors (a failed call, an answer other than 2xx, a batch not
 * settled within a minute, a row not Success) and 0 items received twice upstream; every accepted
 * item must have arrived. The other legs resend nothing (LOAD_REFERENCE_RETRY_SHARE, default 0):
 * none of them knows the key, so each resend would be a second batch, and the sandbox behind
 * them busier than behind the portal. Set it above 0 to see the copies they let through.
 *
 * Latency is reported, not budgeted. The sandbox times each call inside itself (load-sandbox.ts);
 * each call's latency as its user saw it less that time is its time outside the VMS, and a leg's
 * p99 of that less the direct leg's is what its path added: the portal's beside the bare
 * pass-through's and the signing peer's. Every process shares the machine's cores, so what a path
 * adds under this load is mostly its CPU taken from the others: a ratio to the peer moves from
 * run to run too much to hold a budget to.
 *
 * Settings (environment):
 *   LOAD_USERS             simulated users (default 50)
 *   LOAD_SECONDS           each portal leg's duration in seconds (default 120)
 *   LOAD_REFERENCE_SECONDS the direct, bare and peer legs' duration in seconds (default 30)
 *   LOAD_ITEMS             items per batch (default 100)
 *   LOAD_RETRY_SHARE       share of users that resend each batch with the same key (default 0.2)
 *   LOAD_REFERENCE_RETRY_SHARE  the same on the direct, bare and peer legs (default 0)
 *   LOAD_WARMUP_SECONDS    each leg's first seconds, checked but neither timed nor in the
 *                          throughput and CPU figures (default 5)
 *   LOAD_JOURNAL           off: the portals run with JOURNAL=off (default on, as shipped)
 *   LOAD_LEGS              comma-separated legs to run (default direct,bare,peer,portal,portals-2)
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { sandboxDemo } from '@/sandbox';
import { startTestPostgres, type TestPostgres } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import { buildServer } from '../scripts/build-cli';
import {
  emptyTally,
  peerRoute,
  portalRoute,
  runUser,
  signedRoute,
  type Route,
  type Timing,
  type UserTally,
} from './load-users';
import { formatTable } from './measure';
import {
  askTimings,
  cpuMs,
  forkHelper,
  pidsOf,
  startPortalProcess,
  stop,
  type VmsTimings,
} from './processes';

function setting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${name}=${raw}: give a number from ${min} to ${max}`);
  }
  return value;
}

const allLegs = ['direct', 'bare', 'peer', 'portal', 'portals-2'] as const;
type LegName = (typeof allLegs)[number];

const USERS = Math.round(setting('LOAD_USERS', 50, 1, 500));
const SECONDS = setting('LOAD_SECONDS', 120, 1, 3600);
const REFERENCE_SECONDS = setting('LOAD_REFERENCE_SECONDS', 30, 1, 3600);
const ITEMS = Math.round(setting('LOAD_ITEMS', 100, 1, 500));
const RETRY_SHARE = setting('LOAD_RETRY_SHARE', 0.2, 0, 1);
const REFERENCE_RETRY_SHARE = setting('LOAD_REFERENCE_RETRY_SHARE', 0, 0, 1);
const WARMUP_SECONDS = setting('LOAD_WARMUP_SECONDS', 5, 0, 600);
/** The portals' call journal: LOAD_JOURNAL=off measures what it costs under this load. */
const JOURNAL = process.env.LOAD_JOURNAL === 'off' ? 'off' : 'on';
/** The portals sign their users in, as shipped to a team. */
const portalEnv = { AUTH: 'on', JOURNAL };
/** Before the users start, the path's CPU use is read this long with nobody using it. */
const IDLE_SECONDS = 3;
/** A batch still Pending this long after its send counts as an error. */
const SETTLE_TIMEOUT_MS = 60_000;
const password = 'load bench password, not a secret';

const root = fileURLToPath(new URL('..', import.meta.url));

export interface LoadLegResult {
  leg: LegName;
  seconds: number;
  users: number;
  batches: number;
  /** Items the users had accepted (each batch once). */
  items: number;
  retries: number;
  replayed: number;
  /** Resends answered with a new batch id. */
  otherBatchId: number;
  polls: number;
  errors: number;
  errorSamples: string[];
  itemsNotSuccess: number;
  notSuccessSamples: string[];
  /** What the sandbox's database holds: every item row, and the distinct references among them. */
  upstreamItems: number;
  upstreamDistinct: number;
  /** Copies beyond the first of any item at the upstream. */
  sentTwice: number;
  /** Accepted items the upstream does not have. */
  missing: number;
  /** Latency as the users saw it (first sends, polls, deliberate resends), in ms. */
  send: Latency;
  poll: Latency;
  resend: Latency;
  /** The same sends' time inside the sandbox, and each one's latency less that time. */
  sendInside: Latency;
  sendOutside: Latency;
  pollOutside: Latency;
  /** Calls matched with their time inside the VMS. */
  matched: { sends: number; polls: number };
  itemsPerSecond: number;
  /**
   * CPU time (user + system) of the path's processes (the proxy, the portal or both portals)
   * and of the sandbox during the leg, per batch accepted (its send, resend and polls).
   */
  pathCpuMsPerBatch: number;
  vmsCpuMsPerBatch: number;
  /** The path's processes' CPU time per second before the users start, signed in and idle. */
  pathIdleCpuMsPerSecond: number;
}

export interface Latency {
  p50: number;
  p99: number;
}

export interface LoadBenchResult {
  legs: LoadLegResult[];
  withinBudget: boolean;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** Copies of each bench item that reached the sandbox, read from its file once it has stopped. */
function countUpstream(dbPath: string, tag: string): { rows: number; distinct: number } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db
      .prepare(
        'SELECT COUNT(*) AS rows, COUNT(DISTINCT reference) AS distinct_refs FROM batch_items WHERE reference LIKE ?',
      )
      .get(`${tag}-%`) as { rows: number; distinct_refs: number };
    return { rows: row.rows, distinct: row.distinct_refs };
  } finally {
    db.close();
  }
}

interface LegSetup {
  /** Each user's route and where its retries go. */
  routes: (user: number) => { route: Route; retryRoute: Route };
  /** The processes of the path between the users and the VMS (none for direct). */
  pids: number[];
  close(): Promise<void>;
}

async function runLeg(
  leg: LegName,
  dir: string,
  seconds: number,
  setup: (sandboxUrl: string) => Promise<LegSetup>,
): Promise<LoadLegResult> {
  const dbPath = join(dir, `sandbox-${leg}.db`);
  const sandbox = await forkHelper('./load-sandbox.ts', { BENCH_SANDBOX_DB: dbPath });
  const tag = `LOAD${leg.replace(/[^a-z0-9]/gi, '').toUpperCase()}`;
  const tallies = Array.from({ length: USERS }, emptyTally);
  let upstream = { rows: 0, distinct: 0 };
  const portalLeg = leg === 'portal' || leg === 'portals-2';
  const retriers = Math.round(USERS * (portalLeg ? RETRY_SHARE : REFERENCE_RETRY_SHARE));
  let elapsed = 0;
  let timings: VmsTimings = {
    sends: [],
    polls: [],
    results: { count: 0, maxInFlight: 0, firstAt: 0, lastAt: 0 },
  };
  let cpu = { path: 0, vms: 0 };
  let idleCpuMsPerSecond = 0;
  try {
    const { routes, pids, close } = await setup(`http://127.0.0.1:${sandbox.port}`);
    try {
      const sandboxPids = pidsOf([sandbox.child]);
      // What the path costs with nobody using it (timers, pools, background work): per second.
      const idleBefore = cpuMs(pids);
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      idleCpuMsPerSecond = round1((cpuMs(pids) - idleBefore) / IDLE_SECONDS);
      const measureFrom = performance.now() + WARMUP_SECONDS * 1000;
      const endAt = measureFrom + seconds * 1000;
      let cpuBefore = { path: cpuMs(pids), vms: cpuMs(sandboxPids) };
      const warmedUp = setTimeout(() => {
        cpuBefore = { path: cpuMs(pids), vms: cpuMs(sandboxPids) };
      }, WARMUP_SECONDS * 1000);
      await Promise.all(
        tallies.map((tally, user) =>
          runUser(
            {
              tag,
              id: user + 1,
              ...routes(user),
              // Evenly spaced over the users, so each portal process gets its share of them.
              retrier:
                Math.floor(((user + 1) * retriers) / USERS) > Math.floor((user * retriers) / USERS),
              items: ITEMS,
              measureFrom,
              endAt,
              settleTimeoutMs: SETTLE_TIMEOUT_MS,
            },
            tally,
          ),
        ),
      );
      clearTimeout(warmedUp);
      elapsed = (performance.now() - measureFrom) / 1000;
      cpu = { path: cpuMs(pids) - cpuBefore.path, vms: cpuMs(sandboxPids) - cpuBefore.vms };
    } finally {
      await close();
    }
    timings = await askTimings(sandbox.child);
  } finally {
    await stop(sandbox.child);
  }
  upstream = countUpstream(dbPath, tag);
  const sum = (pick: (tally: UserTally) => number) =>
    tallies.reduce((total, tally) => total + pick(tally), 0);
  const ms = (pick: (tally: UserTally) => Timing[]) =>
    tallies.flatMap(pick).map((timing) => timing.ms);
  const items = sum((t) => t.items);
  const measuredBatches = sum((t) => t.measuredBatches);
  const sends = tallies.flatMap((t) => t.sends);
  const polls = tallies.flatMap((t) => t.polls);
  const outside = outsideVms(timings, sends, polls);
  return {
    leg,
    seconds: Math.round(elapsed),
    users: USERS,
    batches: sum((t) => t.batches),
    items,
    retries: sum((t) => t.retries),
    replayed: sum((t) => t.replayed),
    otherBatchId: sum((t) => t.otherBatchId),
    polls: polls.length,
    errors: sum((t) => t.errors),
    errorSamples: tallies.flatMap((t) => t.errorSamples).slice(0, 5),
    itemsNotSuccess: sum((t) => t.itemsNotSuccess),
    notSuccessSamples: tallies.flatMap((t) => t.notSuccessSamples).slice(0, 2),
    upstreamItems: upstream.rows,
    upstreamDistinct: upstream.distinct,
    sentTwice: upstream.rows - upstream.distinct,
    missing: Math.max(0, items - upstream.distinct),
    send: latency(ms((t) => t.sends)),
    poll: latency(ms((t) => t.polls)),
    resend: latency(ms((t) => t.resends)),
    ...outside,
    itemsPerSecond: Math.round((measuredBatches * ITEMS) / Math.max(elapsed, 0.001)),
    pathCpuMsPerBatch: round1(cpu.path / Math.max(1, measuredBatches)),
    vmsCpuMsPerBatch: round1(cpu.vms / Math.max(1, measuredBatches)),
    pathIdleCpuMsPerSecond: idleCpuMsPerSecond,
  };
}

const latency = (values: number[]): Latency => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
});

/**
 * Each call's time outside the VMS: its latency as the user saw it less its time inside the
 * sandbox, for the same call. A send is matched by the batch id it was answered with (a send
 * answered from the portal's remembered answer never reached the VMS and is left out); the polls
 * of a batch are matched in order. What is left is the path in between, the user's side and the
 * sandbox's wait before it reads the request: the same for every leg but the path.
 */
function outsideVms(
  timings: VmsTimings,
  sends: Timing[],
  polls: Timing[],
): Pick<LoadLegResult, 'sendInside' | 'sendOutside' | 'pollOutside' | 'matched'> {
  const inside = new Map(timings.sends);
  const sendInside: number[] = [];
  const sendOutside: number[] = [];
  for (const send of sends) {
    const vms = send.batchId === null || send.replayed ? undefined : inside.get(send.batchId);
    if (vms === undefined) continue;
    sendInside.push(vms);
    sendOutside.push(send.ms - vms);
  }
  const insidePolls = new Map(timings.polls);
  const seen = new Map<string, number>();
  const pollOutside: number[] = [];
  for (const poll of polls) {
    if (poll.batchId === null) continue;
    const index = seen.get(poll.batchId) ?? 0;
    seen.set(poll.batchId, index + 1);
    const vms = insidePolls.get(poll.batchId)?.[index];
    if (vms !== undefined) pollOutside.push(poll.ms - vms);
  }
  return {
    sendInside: latency(sendInside),
    sendOutside: latency(sendOutside),
    pollOutside: latency(pollOutside),
    matched: { sends: sendOutside.length, polls: pollOutside.length },
  };
}

/** Signs every user in on `urls[user % urls.length]`; the same session serves on every process. */
async function signInUsers(urls: string[], addAccount: (email: string) => Promise<void>) {
  const browsers: TestBrowser[][] = [];
  for (let user = 0; user < USERS; user += 1) {
    const email = `load.user.${user + 1}@example.com`;
    await addAccount(email);
    const home = urls[user % urls.length] ?? '';
    const signedIn = new TestBrowser(home);
    const answer = await signedIn.signIn(email, password);
    if (answer.status !== 200) throw new Error(`sign-in answered ${answer.status}: ${answer.text}`);
    // The same browser's session on each process (in the order: home first).
    const order = [home, ...urls.filter((url) => url !== home)];
    browsers.push(
      order.map((url) => {
        if (url === home) return signedIn;
        const other = new TestBrowser(url);
        for (const [name, value] of signedIn.cookies) other.cookies.set(name, value);
        other.csrfToken = signedIn.csrfToken;
        return other;
      }),
    );
  }
  return (user: number) => {
    const [route, retry] = (browsers[user] ?? []).map(portalRoute);
    if (!route) throw new Error(`no browser for user ${user}`);
    return { route, retryRoute: retry ?? route };
  };
}

export async function runLoadBench(): Promise<LoadBenchResult> {
  const chosen = (process.env.LOAD_LEGS ?? allLegs.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = chosen.filter((name) => !(allLegs as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new Error(`LOAD_LEGS names ${unknown.join(', ')}; choose from ${allLegs.join(', ')}`);
  }
  const legs = allLegs.filter((leg) => chosen.includes(leg));
  console.log(
    `load benchmark: ${USERS} users, ${ITEMS}-item requisition batches, ` +
      `${Math.round(USERS * RETRY_SHARE)} of them (portal legs) resending each batch with the ` +
      'same key; ' +
      `portal legs ${SECONDS} s, direct, bare and peer ${REFERENCE_SECONDS} s; sandbox VMS at ` +
      'processing delay 0 in its own process; loopback only.',
  );
  mkdirSync(join(root, 'build'), { recursive: true });
  // Inside the repository: the built server finds its packages in node_modules from there.
  const dir = mkdtempSync(join(root, 'build', '.bench-load-'));
  const results: LoadLegResult[] = [];
  let postgres: TestPostgres | null = null;
  try {
    const main = await buildServer(join(dir, 'server'));
    for (const leg of legs) {
      let result: LoadLegResult;
      if (leg === 'direct') {
        result = await runLeg(leg, dir, REFERENCE_SECONDS, async (sandboxUrl) => {
          const route = signedRoute(sandboxUrl);
          return { routes: () => ({ route, retryRoute: route }), pids: [], close: async () => {} };
        });
      } else if (leg === 'bare') {
        result = await runLeg(leg, dir, REFERENCE_SECONDS, async (sandboxUrl) => {
          const bare = await forkHelper('./proxy-bare.ts', { BENCH_UPSTREAM_URL: sandboxUrl });
          const route = signedRoute(`http://127.0.0.1:${bare.port}`);
          return {
            routes: () => ({ route, retryRoute: route }),
            pids: pidsOf([bare.child]),
            close: () => stop(bare.child),
          };
        });
      } else if (leg === 'peer') {
        result = await runLeg(leg, dir, REFERENCE_SECONDS, async (sandboxUrl) => {
          const peer = await forkHelper('./proxy-peer.ts', {
            BENCH_UPSTREAM_URL: sandboxUrl,
            BENCH_API_KEY: sandboxDemo.apiKey,
            BENCH_API_SECRET: sandboxDemo.apiSecret,
          });
          const route = peerRoute(`http://127.0.0.1:${peer.port}`);
          return {
            routes: () => ({ route, retryRoute: route }),
            pids: pidsOf([peer.child]),
            close: () => stop(peer.child),
          };
        });
      } else if (leg === 'portal') {
        result = await runLeg(leg, dir, SECONDS, async (sandboxUrl) => {
          const portalDb = join(dir, 'portal.db');
          const portal = await startPortalProcess(main, sandboxUrl, { portalDb }, portalEnv);
          try {
            const routes = await signInUsers([portal.url], (email) =>
              addUser(portalDb, email, password, 'recruiter', [sandboxDemo.clientOrgIds[0]]),
            );
            return { routes, pids: pidsOf([portal.child]), close: () => stop(portal.child) };
          } catch (error) {
            await stop(portal.child);
            throw error;
          }
        });
      } else {
        postgres ??= await startTestPostgres();
        const databaseUrl = postgres.createDatabase();
        result = await runLeg(leg, dir, SECONDS, async (sandboxUrl) => {
          // Both at once: the migrations take turns, as in a rolling deployment.
          const portals = await Promise.all([
            startPortalProcess(main, sandboxUrl, { databaseUrl }, portalEnv),
            startPortalProcess(main, sandboxUrl, { databaseUrl }, portalEnv),
          ]);
          const close = async () => {
            await Promise.all(portals.map((portal) => stop(portal.child)));
          };
          try {
            const routes = await signInUsers(
              portals.map((portal) => portal.url),
              (email) =>
                addUser({ databaseUrl }, email, password, 'recruiter', [
                  sandboxDemo.clientOrgIds[0],
                ]),
            );
            return { routes, pids: pidsOf(portals.map((portal) => portal.child)), close };
          } catch (error) {
            await close();
            throw error;
          }
        });
      }
      results.push(result);
      console.log(
        `  ${leg}: ${result.batches} batches, ${result.items} items in ${result.seconds} s, ` +
          `${result.errors} errors, ${result.sentTwice} items sent twice`,
      );
      for (const sample of result.errorSamples) console.log(`    ${sample}`);
    }
  } finally {
    postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  }

  const direct = results.find((result) => result.leg === 'direct');
  console.log('correctness (counted at the sandbox, in its own database):');
  console.log(
    formatTable(
      results.map((r) => ({
        leg: r.leg,
        s: r.seconds,
        batches: r.batches,
        'items/s': r.itemsPerSecond,
        polls: r.polls,
        resends: r.retries,
        'one replayed': r.replayed,
        'new batch id': r.otherBatchId,
        errors: r.errors,
        'rows not Success': r.itemsNotSuccess,
        'upstream items': r.upstreamItems,
        'sent twice': r.sentTwice,
        missing: r.missing,
      })),
    ),
  );
  console.log(
    'latency in ms: as the users saw it; "inside" the sandbox for the same sends; "outside" is ' +
      'each call less its own time inside; "added" is a leg\'s outside p50 or p99 less the ' +
      "direct leg's (on a shared machine a p99 moves by hundreds of ms from run to run: the p50 " +
      'is the steadier figure):',
  );
  console.log(
    formatTable(
      results.map((r) => ({
        leg: r.leg,
        'send p50': r.send.p50,
        'send p99': r.send.p99,
        'inside p99': r.sendInside.p99,
        'outside p50': r.sendOutside.p50,
        'outside p99': r.sendOutside.p99,
        'added p50':
          direct && r.leg !== 'direct' ? round1(r.sendOutside.p50 - direct.sendOutside.p50) : '-',
        'added p99':
          direct && r.leg !== 'direct' ? round1(r.sendOutside.p99 - direct.sendOutside.p99) : '-',
        'poll p99': r.poll.p99,
        'poll outside p99': r.pollOutside.p99,
        'poll added p99':
          direct && r.leg !== 'direct' ? round1(r.pollOutside.p99 - direct.pollOutside.p99) : '-',
        'resend p99': r.resend.p99,
        matched: `${r.matched.sends}/${r.matched.polls}`,
      })),
    ),
  );
  console.log('CPU ms per batch accepted (its send, resend and polls), user + system:');
  console.log(
    formatTable(
      results.map((r) => ({
        leg: r.leg,
        path: r.leg === 'direct' ? '-' : r.pathCpuMsPerBatch,
        sandbox: r.vmsCpuMsPerBatch,
        'path idle, ms/s': r.leg === 'direct' ? '-' : r.pathIdleCpuMsPerSecond,
      })),
    ),
  );
  const peer = results.find((result) => result.leg === 'peer');
  const bare = results.find((result) => result.leg === 'bare');
  for (const r of results) {
    if (r.leg !== 'portal' && r.leg !== 'portals-2') continue;
    const ratio = (other: LoadLegResult | undefined) =>
      other && other.pathCpuMsPerBatch > 0
        ? String(round1(r.pathCpuMsPerBatch / other.pathCpuMsPerBatch))
        : '-';
    const addedSend = (leg: LoadLegResult | undefined) =>
      leg && direct
        ? `${round1(leg.sendOutside.p50 - direct.sendOutside.p50)} / ` +
          `${round1(leg.sendOutside.p99 - direct.sendOutside.p99)} ms`
        : '-';
    console.log(
      `${r.leg} (context): CPU per batch ${ratio(peer)} × the signing peer's, ${ratio(bare)} × ` +
        `the bare pass-through's; added send p50 / p99 ${addedSend(r)}, the bare ` +
        `pass-through's ${addedSend(bare)}, the signing peer's ${addedSend(peer)}`,
    );
  }
  let withinBudget = true;
  for (const r of results) {
    if (r.leg !== 'portal' && r.leg !== 'portals-2') continue;
    const met =
      r.errors === 0 &&
      r.itemsNotSuccess === 0 &&
      r.sentTwice === 0 &&
      r.missing === 0 &&
      r.batches > 0;
    console.log(
      `${r.leg}: errors ${r.errors + r.itemsNotSuccess} (budget 0), items sent twice ` +
        `${r.sentTwice} (budget 0), accepted items missing upstream ${r.missing} (budget 0): ` +
        `${met ? 'met' : 'MISSED'}`,
    );
    for (const sample of r.notSuccessSamples) console.log(`    ${sample}`);
    withinBudget &&= met;
  }
  for (const r of results) {
    if (r.leg !== 'portal' && r.leg !== 'portals-2' && r.sentTwice > 0) {
      console.log(
        `${r.leg} (context): the VMS does not know the Idempotency-Key, so ${r.sentTwice} ` +
          `resent items arrived twice there (${r.itemsNotSuccess} rows then refused as a ` +
          'reference already used).',
      );
    }
  }
  return { legs: results, withinBudget };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runLoadBench();
  if (!result.withinBudget) process.exitCode = 1;
}
