import fp from 'fastify-plugin';
import type { PortalConfig } from '@/server/config';
import type { DrainReport, PortalLifecycle } from './drain';

/** The parts of the portal that report a problem of their own to /api/health, in its order. */
const reportingParts = ['database', 'journal'] as const;
type ReportingPart = (typeof reportingParts)[number];

/**
 * What the portal's parts say about their own health between probes: the proxy when the database
 * fails a write, the journal when it cannot write. Each part's latest word counts; null is "works
 * again". /api/health lists them; readiness does not (a past write failure would keep a process
 * out of rotation forever, since without calls no write could show that it works again).
 */
export class HealthReports {
  private readonly problems = new Map<ReportingPart, string>();

  report(part: ReportingPart, problem: string | null): void {
    if (problem === null) this.problems.delete(part);
    else this.problems.set(part, problem);
  }

  /** The problems reported and not yet cleared, database first. */
  list(): string[] {
    return reportingParts.flatMap((part) => this.problems.get(part) ?? []);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the process drains, and the proxy's handle for the drain. */
    lifecycle: PortalLifecycle;
    /** The parts' own health reports, for /api/health. */
    healthReports: HealthReports;
    /**
     * Drains and closes the portal (SIGTERM, SIGINT): new sends are refused with 503 `draining`
     * and readiness says 503; calls at the VMS get up to PORTAL_DRAIN_TIMEOUT_MS to finish, then
     * the keys of those still waiting become unknown; the journal is written, the database
     * closed. Calling it again returns the same drain.
     */
    drainPortal(): Promise<DrainReport>;
  }
}

export interface OpsOptions {
  config: PortalConfig;
  /** Made by the caller, which hands it to the proxy too: the proxy joins it as it loads. */
  lifecycle: PortalLifecycle;
  /** Made by the caller, which hands the proxy a way to report into it. */
  health: HealthReports;
}

/**
 * How the process is run and stopped (decision 033): its shutdown state, the drain, and the
 * health reports the probes read. Registered first: it needs nothing, and the other parts report
 * into it.
 */
export const opsPlugin = fp<OpsOptions>(
  async (app, { config, lifecycle, health }) => {
    app.decorate('lifecycle', lifecycle);
    app.decorate('healthReports', health);

    // While draining, each answer ends its connection: a browser's next call opens a new one,
    // which the load balancer sends to a process that is ready, and close() is not left waiting
    // for keep-alive connections that became idle after it had closed the idle ones.
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (lifecycle.draining) reply.header('connection', 'close');
      done(null, payload);
    });

    let draining: Promise<DrainReport> | null = null;
    app.decorate('drainPortal', () => {
      draining ??= drain();
      return draining;
    });

    async function drain(): Promise<DrainReport> {
      const started = performance.now();
      lifecycle.draining = true;
      // Read when the drain runs: the journal is opened by its own plugin, after this one.
      const journal = app.journal;
      const writtenBefore = journal?.written ?? 0;
      app.log.info(
        {
          event: 'drain_start',
          callsInFlight: lifecycle.proxy?.inFlight() ?? 0,
          journalQueued: journal?.backlog ?? 0,
          timeoutMs: config.drainTimeoutMs,
        },
        'drain started',
      );
      await Promise.all(lifecycle.stopFirst.map((stop) => stop()));
      const settled = (await lifecycle.proxy?.settle(config.drainTimeoutMs)) ?? {
        finished: 0,
        markedUnknown: 0,
        timedOut: false,
      };
      // Each part's onClose runs, the last opened first: the proxy lets go of its calls, then
      // the journal writes its queue, the audit trail its own, and the database closes.
      await app.close();
      const report: DrainReport = {
        callsFinished: settled.finished,
        keysMarkedUnknown: settled.markedUnknown,
        journalFlushed: (journal?.written ?? 0) - writtenBefore,
        timedOut: settled.timedOut,
        durationMs: Math.round(performance.now() - started),
      };
      app.log.info({ event: 'drain_end', ...report }, 'drain finished');
      return report;
    }
  },
  { name: 'ops', fastify: '5.x' },
);
