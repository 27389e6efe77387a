import { PgBoss } from 'pg-boss';
import type { WatchQueue } from './watcher';

/** What a check job carries: the watch it is for. */
interface CheckJob {
  connection: string;
  batchId: string;
}

export interface PgBossQueueOptions {
  databaseUrl: string;
  connections: readonly string[];
  /** Checks in flight at once per connection in this process (WATCH_CONCURRENCY). */
  concurrency: number;
  /** How long a check may hold its job before another process takes it over, in seconds. */
  expireInSeconds(connection: string): number;
  log: { warn(object: object, message: string): void };
}

/** pg-boss's queue names allow letters, digits, `-`, `_` and `.`; connection names are of those. */
const queueOf = (connection: string) => `batch-watch.${connection}`;

/**
 * The watch's checks as pg-boss jobs on the portal's PostgreSQL (decision 050): one queue per
 * connection, one job per check, keyed by the batch. The queues are `stately`, so a batch has at
 * most one check waiting and one running, whichever process runs it; a job whose process died
 * expires and is run again by a live one. The handler sends the batch's next check, due when the
 * watcher says, before its own job completes.
 */
export class PgBossWatchQueue implements WatchQueue {
  private readonly boss: PgBoss;
  private started = false;

  constructor(private readonly options: PgBossQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      // Its own schema, installed and migrated by pg-boss on start; the portal's tables are apart.
      schema: 'pgboss',
      max: 4,
      schedule: false,
      application_name: 'vms-portal batch watch',
    });
    this.boss.on('error', (error: unknown) => {
      options.log.warn({ err: error }, 'batch watch: the job queue reported an error');
    });
  }

  async start(check: (connection: string, batchId: string) => Promise<number | null>) {
    await this.boss.start();
    this.started = true;
    for (const connection of this.options.connections) {
      const name = queueOf(connection);
      const expireInSeconds = Math.max(1, Math.ceil(this.options.expireInSeconds(connection)));
      if (!(await this.boss.getQueue(name))) {
        await this.boss.createQueue(name, {
          policy: 'stately',
          expireInSeconds,
          // A check that failed or expired is simply run again; the watch gives itself up.
          retryLimit: 1000,
          retryDelay: 1,
          deleteAfterSeconds: 60 * 60,
        });
      }
      await this.boss.work<CheckJob>(
        name,
        { localConcurrency: this.options.concurrency, pollingIntervalSeconds: 0.5 },
        async ([job]) => {
          if (!job) return;
          const next = await check(job.data.connection, job.data.batchId);
          if (next !== null) await this.send(job.data, next);
        },
      );
    }
  }

  async added(connection: string, batchId: string, at: number): Promise<void> {
    await this.send({ connection, batchId }, at);
  }

  async close(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }

  /** The batch's next check; none is added when one is already waiting (the key is taken). */
  private async send(job: CheckJob, at: number): Promise<void> {
    await this.boss.send(queueOf(job.connection), job, {
      singletonKey: `${job.connection}\n${job.batchId}`,
      startAfter: new Date(at),
    });
  }
}
