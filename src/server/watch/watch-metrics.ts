import { Counter, Gauge, type Registry } from 'prom-client';
import { metricPrefix } from '@/server/metrics/portal-metrics';
import type { WatchEvents } from './watcher';

/**
 * The watch's metrics, in the portal's registry: batches still watched (read from the store when
 * scraped, so every process on a shared database reports the same figure), results calls in
 * flight and made, per connection, by what the check found.
 */
export function watchMetrics(
  registry: Registry,
  watching: () => Promise<number>,
): Pick<WatchEvents, 'asking' | 'checked' | 'failed'> {
  const registers = [registry];
  new Gauge({
    name: `${metricPrefix}watches_watching`,
    help: 'Batches the VMS accepted that the portal still watches (every process on a shared database reports the same).',
    registers,
    async collect() {
      this.set(await watching().catch(() => Number.NaN));
    },
  });
  const inFlight = new Gauge({
    name: `${metricPrefix}watch_results_calls_in_flight`,
    help: "The watcher's results calls waiting for the VMS in this process, by connection (at most WATCH_CONCURRENCY each).",
    labelNames: ['connection'],
    registers,
  });
  const checks = new Counter({
    name: `${metricPrefix}watch_checks_total`,
    help: "The watcher's checks of a batch in this process, by connection and what they found: watching (still pending, or no readable answer), settled, gave_up, or failed (not recorded; checked again).",
    labelNames: ['connection', 'outcome'],
    registers,
  });
  return {
    asking: (connection, delta) => inFlight.inc({ connection }, delta),
    checked: (watch, outcome) =>
      checks.inc({ connection: watch.connection, outcome: outcome.state }),
    failed: (watch) => checks.inc({ connection: watch.connection, outcome: 'failed' }),
  };
}
