import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { AuditEvent, AuditFields } from '@/server/accounts/audit';
import type { CallAnswerFields, CallLine } from '@/server/proxy/call-line';
import { metricPrefix } from './metric-prefix';
import { registerScrapedMetrics, type ScrapeSources } from './scraped-metrics';

export { metricPrefix } from './metric-prefix';
export type { ScrapeSources } from './scraped-metrics';

/**
 * What the proxy's one line per call holds that the metrics read. `connection` is the VMS
 * connection the call went to, when the line names one; lines without it count for the default.
 */
export type CallLineFields = CallAnswerFields & Partial<Pick<CallLine, 'connection'>>;

/**
 * What became of a send with an Idempotency-Key. `forwarded`: the gate let it through to the VMS
 * (counted when its key is claimed, so a first send whose answer comes late counts too). The
 * others are what the browser was answered: `replayed` (a remembered answer), `waiting` (504: the
 * batch's answer is still awaited, for its first send or a repeat), `unknown` (409
 * outcome_unknown: a first send whose answer never came, or a repeat of one, refused).
 */
export type IdempotencyOutcome = 'forwarded' | 'replayed' | 'waiting' | 'unknown';

/** The answer's part, read from the call line: null for a call without a key, or another answer. */
export function idempotencyAnswer(
  line: CallLineFields,
): Exclude<IdempotencyOutcome, 'forwarded'> | null {
  if (line.idempotencyKey === undefined) return null;
  if (line.replayed) return 'replayed';
  if (line.upstreamStatus !== null) return null;
  // No VMS answer: the gate's own answers, or a failure to reach the VMS (counted as forwarded).
  if (line.status === 409) return 'unknown';
  if (line.status === 504) return 'waiting';
  return null;
}

/** The stores retention prunes, as `vms_portal_retention_pruned_total` labels them. */
export type RetentionLabel = 'journal' | 'results' | 'drafts' | 'suite_runs';

/** 2xx, 4xx, 5xx: what a dashboard groups batches by. */
export function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}

function cached<T>(map: Map<string, T>, key: string, make: () => T): T {
  let found = map.get(key);
  if (found === undefined) {
    found = make();
    map.set(key, found);
  }
  return found;
}

/** Up to a minute: the VMS's default wait is 30 s, and a slow answer must still land in a bucket. */
const vmsCallBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const httpBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** From half a millisecond: most store calls are a prepared SQLite statement. */
const databaseBuckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The portal's metrics, in a registry of their own: two portals in one process (the tests, the
 * benchmark) each count their own calls and never collide on a name.
 */
export class PortalMetrics {
  readonly registry = new Registry();
  private readonly defaultConnection: string;
  private sources: ScrapeSources = {};
  /**
   * Each label combination's series, found once: prom-client otherwise builds and hashes the
   * label set on every call, which is most of a count's cost on the proxy's path.
   */
  private readonly httpSeries = new Map<
    string,
    { count: Counter.Internal; duration: Histogram.Internal<'method' | 'route'> }
  >();
  private readonly callSeries = new Map<
    string,
    {
      count: Counter.Internal;
      duration: Histogram.Internal<'connection' | 'operation' | 'status'>;
      batches: Counter.Internal;
      items: Counter.Internal;
    }
  >();

  private readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  private readonly httpDuration: Histogram<'method' | 'route'>;
  private readonly vmsCalls: Counter<'connection' | 'operation' | 'status'>;
  private readonly vmsDuration: Histogram<'connection' | 'operation' | 'status'>;
  private readonly batches: Counter<'connection' | 'operation' | 'outcome'>;
  private readonly items: Counter<'connection' | 'operation' | 'outcome'>;
  private readonly idempotency: Counter<'outcome'>;
  private readonly signIns: Counter<'outcome' | 'method'>;
  private readonly scheduledRuns: Counter<'outcome'>;
  private readonly journalWrites: Counter;
  private readonly journalPruned: Counter;
  private readonly retentionPruned: Counter<'store'>;
  private readonly databaseDuration: Histogram<'store' | 'operation'>;
  private readonly databaseErrors: Counter<'store' | 'operation'>;
  private readonly unreadableDates: Counter<'connection' | 'field'>;
  private readonly deliveries: Counter<'channel' | 'outcome'>;

  constructor(options: { defaultConnection: string }) {
    this.defaultConnection = options.defaultConnection;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: metricPrefix });

    this.httpRequests = new Counter({
      name: `${metricPrefix}http_requests_total`,
      help: 'Requests the portal answered, by route pattern (never the address asked for) and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: `${metricPrefix}http_request_duration_seconds`,
      help: 'Time from a request arriving to its answer being sent, by route pattern.',
      labelNames: ['method', 'route'],
      buckets: httpBuckets,
      registers,
    });
    this.vmsCalls = new Counter({
      name: `${metricPrefix}vms_calls_total`,
      help: 'Calls through the signing proxy (one per call log line), by VMS connection, operation and the status answered.',
      labelNames: ['connection', 'operation', 'status'],
      registers,
    });
    this.vmsDuration = new Histogram({
      name: `${metricPrefix}vms_call_duration_seconds`,
      help: 'Time the proxy took to answer a call, the VMS call included, by connection, operation and status.',
      labelNames: ['connection', 'operation', 'status'],
      buckets: vmsCallBuckets,
      registers,
    });
    this.batches = new Counter({
      name: `${metricPrefix}batches_sent_total`,
      help: 'POSTed batches the proxy answered other than from a remembered answer, by the class of the answer (2xx, 4xx, 5xx).',
      labelNames: ['connection', 'operation', 'outcome'],
      registers,
    });
    this.items = new Counter({
      name: `${metricPrefix}batch_items_sent_total`,
      help: 'Items in those batches, by the class of the batch answer.',
      labelNames: ['connection', 'operation', 'outcome'],
      registers,
    });
    this.idempotency = new Counter({
      name: `${metricPrefix}idempotency_outcomes_total`,
      help: 'Sends with an Idempotency-Key: forwarded (let through to the VMS), and answers replayed (a remembered answer), waiting (504, the answer still awaited) and unknown (409 outcome_unknown).',
      labelNames: ['outcome'],
      registers,
    });
    this.scheduledRuns = new Counter({
      name: `${metricPrefix}suite_scheduled_runs_total`,
      help: 'Scheduled QA suite occurrences by outcome: passed, failed (a case failed), interrupted, skipped (missed while down, not caught up), stopped (the owner could no longer run it).',
      labelNames: ['outcome'],
      registers,
    });
    this.signIns = new Counter({
      name: `${metricPrefix}sign_ins_total`,
      help: 'Sign-ins: success, failure, or locked_out (refused after too many failures), by method (password, sso).',
      labelNames: ['outcome', 'method'],
      registers,
    });
    this.journalWrites = new Counter({
      name: `${metricPrefix}journal_writes_total`,
      help: 'Calls and late answers this process wrote to the call journal.',
      registers,
    });
    this.journalPruned = new Counter({
      name: `${metricPrefix}journal_pruned_total`,
      help: 'Calls the journal retention deleted (by age or by size).',
      registers,
    });
    this.retentionPruned = new Counter({
      name: `${metricPrefix}retention_pruned_total`,
      help: 'Rows retention pruned, by store: journal (calls), results (batches the watch kept), drafts (drafts and tray items emptied), suite_runs.',
      labelNames: ['store'],
      registers,
    });
    this.databaseDuration = new Histogram({
      name: `${metricPrefix}db_query_duration_seconds`,
      help: 'Time one store call on the portal database took, by store and operation.',
      labelNames: ['store', 'operation'],
      buckets: databaseBuckets,
      registers,
    });
    this.databaseErrors = new Counter({
      name: `${metricPrefix}db_query_errors_total`,
      help: 'Store calls on the portal database that failed, by store and operation.',
      labelNames: ['store', 'operation'],
      registers,
    });

    this.unreadableDates = new Counter({
      name: `${metricPrefix}vms_unreadable_dates_total`,
      help: "Requisition records the VMS listed whose created or last-updated time the connection's profile (dates.dateTimes) cannot read, by connection and field.",
      labelNames: ['connection', 'field'],
      registers,
    });

    this.deliveries = new Counter({
      name: `${metricPrefix}notification_deliveries_total`,
      help: 'Attempts to deliver a notification by e-mail or webhook, by channel and outcome: sent, retry (failed, tried again later) or failed (given up).',
      labelNames: ['channel', 'outcome'],
      registers,
    });

    // Read when scraped, not kept up to date on every call: the sources are cheap to ask.
    registerScrapedMetrics(registers, () => this.sources);
  }

  /** Where the scrape-time figures come from, once the journal and the database are open. */
  setSources(sources: ScrapeSources): void {
    this.sources = { ...this.sources, ...sources };
  }

  /** The Prometheus text format, with its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const series = cached(this.httpSeries, `${method} ${route} ${status}`, () => ({
      count: this.httpRequests.labels(method, route, String(status)),
      duration: this.httpDuration.labels(method, route),
    }));
    series.count.inc();
    series.duration.observe(seconds);
  }

  /** One call through the proxy, from its call line. */
  vmsCall(line: CallLineFields): void {
    const connection = line.connection ?? this.defaultConnection;
    const { operation, status } = line;
    const series = cached(this.callSeries, `${connection}\n${operation}\n${status}`, () => {
      const outcome = statusClass(status);
      return {
        count: this.vmsCalls.labels(connection, operation, String(status)),
        duration: this.vmsDuration.labels(connection, operation, String(status)),
        batches: this.batches.labels(connection, operation, outcome),
        items: this.items.labels(connection, operation, outcome),
      };
    });
    series.count.inc();
    series.duration.observe(line.durationMs / 1000);
    const idempotency = idempotencyAnswer(line);
    if (idempotency !== null) this.idempotency.labels(idempotency).inc();
    if (line.itemCount !== null && !line.replayed) {
      series.batches.inc();
      series.items.inc(line.itemCount);
    }
  }

  /** Records of one list read whose `field` time the profile could not read. */
  unreadableDate(connection: string, field: 'created' | 'updated', count: number): void {
    this.unreadableDates.inc({ connection, field }, count);
  }

  /** One attempt to deliver a notification, and how it ended. */
  delivery(channel: 'email' | 'webhook', outcome: 'sent' | 'retry' | 'failed'): void {
    this.deliveries.inc({ channel, outcome });
  }

  /** A first send whose key the gate claimed: it goes to the VMS. */
  idempotencyForwarded(): void {
    this.idempotency.inc({ outcome: 'forwarded' });
  }

  /** A repeat refused before the proxy's call line: its key's outcome is unknown. */
  idempotencyUnknown(): void {
    this.idempotency.inc({ outcome: 'unknown' });
  }

  /** A scheduled suite occurrence's outcome (decision 057). */
  scheduledRun(outcome: string): void {
    this.scheduledRuns.inc({ outcome });
  }

  /** Sign-in outcomes, read from the audit events that record them. */
  audit(event: AuditEvent, fields: AuditFields): void {
    if (event !== 'sign_in' && event !== 'sign_in_failed') return;
    const method = fields.method === 'sso' ? 'sso' : 'password';
    const outcome =
      event === 'sign_in' ? 'success' : fields.reason === 'throttled' ? 'locked_out' : 'failure';
    this.signIns.inc({ outcome, method });
  }

  journalWritten(count: number): void {
    if (count > 0) this.journalWrites.inc(count);
  }

  journalPrunedCalls(count: number): void {
    if (count > 0) this.journalPruned.inc(count);
    this.retentionPrunedRows('journal', count);
  }

  /** Rows one store's retention step pruned (decision 060). */
  retentionPrunedRows(store: RetentionLabel, count: number): void {
    if (count > 0) this.retentionPruned.inc({ store }, count);
  }

  /** What times one store method's calls: its series made once, not looked up on each call. */
  databaseTimer(store: string, operation: string): (seconds: number, failed: boolean) => void {
    const duration = this.databaseDuration.labels(store, operation);
    const errors = this.databaseErrors.labels(store, operation);
    return (seconds, failed) => {
      duration.observe(seconds);
      if (failed) errors.inc();
    };
  }
}
