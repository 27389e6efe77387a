import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import type { SessionUser } from '@/domain/auth';
import type { Suite } from '@/domain/suite';
import { compareRuns, type Actor, type CaseResult } from '@/domain/suite-run';
import { connectionHeader } from '@/domain/vms-contract';
import { runSuite, RunStopped, type RunProgress, type SuiteTransport } from '@/node/suite-run';
import type { ApiTokenUse } from '@/server/api-tokens/api-tokens';
import type { Connection } from '@/server/config';
import type { SuiteStore } from './suite-store';

/**
 * Runs QA suites in the background, through this portal's own proxy (decision 038): every batch
 * and results read is a request to `/api/vms/…` made with `app.inject`, so it goes through the
 * same hooks as the browser's (the org and connection checks for the user who started the run,
 * signing, the idempotency gate, the journal, the audit trail, the metrics) without a network
 * hop. The request carries `X-Portal-Suite-Run: <run id>.<secret>`; `identify` recognises it by
 * the secret, which exists only in this process for as long as the run does, and makes the
 * request the run's: the user's (and the API token's, when the run was started with one), and
 * tagged with the run in the journal.
 *
 * Progress is written to the database as cases get their results (at most twice a second), so
 * any portal process sharing the database reads it; a heartbeat is renewed meanwhile. A run this
 * process stops (a drain, a restart) is marked interrupted with the cases done so far; one left
 * `running` by a process that died is found by its stale heartbeat and marked so too.
 */

/** The header that makes a request one of a suite run's. */
export const suiteRunHeader = 'x-portal-suite-run';

declare module 'fastify' {
  interface FastifyRequest {
    /** The suite run that made this proxied call (its id), or null. */
    suiteRun: number | null;
  }
}

interface ActiveRun {
  id: number;
  secret: Buffer;
  user: SessionUser | null;
  token: ApiTokenUse | null;
  stop: AbortController;
  casesDone: number;
  /** Told whenever the run moves on or ends. */
  listeners: Set<() => void>;
  done: Promise<void>;
}

export interface StartedRun {
  suite: Suite;
  suiteId: number | null;
  suiteVersion: number | null;
  connection: Connection;
  clientOrgId: number;
  vendorOrgId: number;
  /** Who started it: its calls go as them; null with sign-in off. */
  user: SessionUser | null;
  /**
   * The personal API token the run was started with, or null: its calls are then the token's in
   * the audit trail and the call log ("via token <name>"), as the token's own calls are.
   */
  token: ApiTokenUse | null;
  /** The address they called from: the run's calls count against it (the rate limit, audit). */
  address: string;
}

export interface SuiteRunnerOptions {
  app: FastifyInstance;
  store: Promise<SuiteStore>;
  /** The database is the process's alone (SQLite): any run left `running` is no other's. */
  shared: Promise<boolean>;
  signInRequired: boolean;
  log: Pick<FastifyInstance['log'], 'error' | 'warn'>;
  now?: () => number;
  /** How often a running run's heartbeat is renewed (and stale ones swept). Default 10 s. */
  heartbeatMs?: number;
  /** A run whose heartbeat is older than this is taken to be dead. Default 60 s. */
  staleAfterMs?: number;
  /** Longest wait for one batch's results. */
  resultsTimeoutMs?: number;
}

const interruptedByStop =
  'the portal was stopped (a restart or shutdown) while the run went on; the cases done by then are kept, the rest did not run';
const interruptedByDeath =
  'the portal process running it stopped without finishing it (a crash or a restart); the cases done by then are kept, the rest did not run';

/** Progress is written at most this often while cases come in. */
const progressEveryMs = 500;

export class SuiteRunner {
  private readonly active = new Map<number, ActiveRun>();
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  /** Runs left `running` by a process that is gone are marked first (see the constructor). */
  private readonly ready: Promise<void>;
  private closed = false;

  constructor(private readonly options: SuiteRunnerOptions) {
    this.now = options.now ?? Date.now;
    const every = options.heartbeatMs ?? 10_000;
    this.timer = setInterval(() => void this.beat(), every);
    this.timer.unref();
    // A run left running when a portal alone on its SQLite file stopped is no one's now; with a
    // shared database, only one whose heartbeat stopped is.
    this.ready = Promise.all([options.store, options.shared]).then(
      async ([store, shared]) => {
        await store.interruptStale(
          shared ? this.now() - (options.staleAfterMs ?? 60_000) : Number.POSITIVE_INFINITY,
          interruptedByDeath,
          this.now(),
        );
      },
      () => {},
    );
  }

  /**
   * The onRequest hook: a proxied call carrying a live run's header becomes that run's call, made
   * as the user who started it. Anything else is left alone (a header that matches nothing
   * included).
   */
  readonly identify = async (request: FastifyRequest): Promise<void> => {
    const header = request.headers[suiteRunHeader];
    if (typeof header !== 'string' || !(request.raw.url ?? '').startsWith('/api/vms/')) return;
    const [id = '', secret = ''] = header.split('.');
    const run = this.active.get(Number(id));
    const given = Buffer.from(secret, 'hex');
    if (!run || given.length !== run.secret.length || !timingSafeEqual(given, run.secret)) return;
    request.suiteRun = run.id;
    if (this.options.signInRequired && run.user) {
      request.portalSession = { user: run.user, csrfToken: '', idHash: Buffer.alloc(0) };
      // Named only: the token's scope was checked when the run started, and the calls are the
      // portal's own, so they are not held to it (a token of scope suites runs suites).
      if (run.token) request.apiToken = run.token;
    }
  };

  /** Starts a run in the background; its id at once. */
  async start(started: StartedRun): Promise<number> {
    if (this.closed) {
      throw new ApiError(
        'draining',
        'This portal process is shutting down and starts no new run. Start it again in a moment.',
      );
    }
    await this.ready;
    const store = await this.options.store;
    const runToken = randomBytes(4).toString('hex');
    const actor: Actor = started.user
      ? { userId: started.user.id, email: started.user.email }
      : null;
    const id = await store.createRun({
      suiteId: started.suiteId,
      suiteName: started.suite.name,
      suiteVersion: started.suiteVersion,
      connection: started.connection.name,
      clientOrgId: started.clientOrgId,
      vendorOrgId: started.vendorOrgId,
      runToken,
      startedAt: this.now(),
      startedBy: actor,
      casesTotal: started.suite.cases.length,
    });
    const run: ActiveRun = {
      id,
      secret: randomBytes(32),
      user: started.user,
      token: started.token,
      stop: new AbortController(),
      casesDone: 0,
      listeners: new Set(),
      done: Promise.resolve(),
    };
    this.active.set(id, run);
    run.done = this.execute(run, started, runToken, store);
    return id;
  }

  /** Resolves when run `id` of this process has ended (at once when it is not running here). */
  async finished(id: number): Promise<void> {
    await this.active.get(id)?.done;
  }

  /**
   * Resolves when run `id` has other than `seen` cases done or has ended, or after `waitMs`.
   * A run of another process is read from the database every quarter second.
   */
  async waitForChange(
    id: number,
    read: () => Promise<{ casesDone: number; status: string } | undefined>,
    seen: number,
    waitMs: number,
  ): Promise<void> {
    const deadline = this.now() + waitMs;
    while (!this.closed && this.now() < deadline) {
      const current = await read();
      if (!current || current.status !== 'running' || current.casesDone !== seen) return;
      const run = this.active.get(id);
      const left = deadline - this.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, run ? left : Math.min(250, left));
        function done() {
          clearTimeout(timer);
          run?.listeners.delete(done);
          resolve();
        }
        run?.listeners.add(done);
      });
    }
  }

  /** Stops every run of this process; each is marked interrupted with what it had done. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    const runs = [...this.active.values()];
    for (const run of runs) run.stop.abort();
    await Promise.allSettled(runs.map((run) => run.done));
  }

  private async beat(): Promise<void> {
    try {
      const store = await this.options.store;
      await store.heartbeat([...this.active.keys()], this.now());
      if (await this.options.shared) {
        await store.interruptStale(
          this.now() - (this.options.staleAfterMs ?? 60_000),
          interruptedByDeath,
          this.now(),
        );
      }
    } catch (error) {
      this.options.log.warn({ err: error }, 'suite runs: heartbeat not written');
    }
  }

  private transport(run: ActiveRun, started: StartedRun): SuiteTransport {
    const { app } = this.options;
    const header = `${run.id}.${run.secret.toString('hex')}`;
    return {
      request: async ({ method, path, body, idempotencyKey }) => {
        const response = await app.inject({
          method,
          url: path,
          remoteAddress: started.address,
          headers: {
            accept: 'application/json',
            [connectionHeader]: started.connection.name,
            [suiteRunHeader]: header,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }),
          },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        let json: unknown = null;
        try {
          json = JSON.parse(response.body);
        } catch {
          // Left null: the status and text say what happened.
        }
        const retryAfter = Number(response.headers['retry-after']);
        return {
          status: response.statusCode,
          json,
          text: response.body,
          ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {}),
        };
      },
    };
  }

  private async execute(
    run: ActiveRun,
    started: StartedRun,
    runToken: string,
    store: SuiteStore,
  ): Promise<void> {
    let latest: RunProgress = { cases: [], batches: 0 };
    let written = 0;
    let writing: Promise<void> = Promise.resolve();
    let trailing: NodeJS.Timeout | null = null;
    const notify = () => {
      for (const listener of [...run.listeners]) listener();
    };
    // Progress goes to the database at most every half second, the last change always; those
    // waiting for it are told once it is there to read.
    const write = () => {
      const snapshot = latest;
      written = this.now();
      writing = writing
        .then(() => store.writeProgress(run.id, { ...snapshot, at: this.now() }))
        .then(notify, (error: unknown) =>
          this.options.log.warn(
            { err: error, suiteRun: run.id },
            'suite run: progress not written',
          ),
        );
    };
    const schedule = () => {
      if (trailing) return;
      trailing = setTimeout(
        () => {
          trailing = null;
          write();
        },
        Math.max(0, written + progressEveryMs - this.now()),
      );
    };
    const end = async (status: 'finished' | 'interrupted', interruption: string | null) => {
      if (trailing) clearTimeout(trailing);
      trailing = null;
      await writing;
      const previous = await store.previousRun({
        id: run.id,
        suiteId: started.suiteId,
        suiteName: started.suite.name,
        connection: started.connection.name,
      });
      const verdicts = compareRuns(latest.cases, previous?.cases ?? null);
      const cases: CaseResult[] = latest.cases.map((entry, index) => ({
        ...entry,
        verdict: verdicts[index] ?? 'new',
      }));
      await store.endRun(run.id, {
        status,
        interruption,
        cases,
        batches: latest.batches,
        previousRunId: previous?.id ?? null,
        at: this.now(),
      });
    };

    try {
      latest = await runSuite(started.suite, this.transport(run, started), {
        clientOrgId: started.clientOrgId,
        vendorOrgId: started.vendorOrgId,
        maxBatch: started.connection.maxBatch,
        runToken,
        signal: run.stop.signal,
        ...(this.options.resultsTimeoutMs === undefined
          ? {}
          : { resultsTimeoutMs: this.options.resultsTimeoutMs }),
        onProgress: (progress) => {
          latest = progress;
          run.casesDone = progress.cases.length;
          schedule();
        },
      });
      await end('finished', null);
    } catch (error) {
      const stopped = error instanceof RunStopped || run.stop.signal.aborted;
      if (!stopped) this.options.log.error({ err: error, suiteRun: run.id }, 'suite run failed');
      await end(
        'interrupted',
        stopped
          ? interruptedByStop
          : `the run failed inside the portal (${error instanceof Error ? error.message : String(error)}); the cases done by then are kept`,
      ).catch((failure: unknown) =>
        this.options.log.error(
          { err: failure, suiteRun: run.id },
          'suite run: its end not written',
        ),
      );
    } finally {
      this.active.delete(run.id);
      notify();
    }
  }
}
