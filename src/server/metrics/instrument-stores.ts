import type { JournalStore } from '@/server/journal/store/journal-store';
import type { IdempotencyKeyStore } from '@/server/proxy/store/idempotency-keys';
import type { StoreWrapper } from '@/server/store/database';
import type { PortalMetrics, RetentionLabel } from './portal-metrics';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

type Count = (metrics: PortalMetrics, args: unknown[], result: unknown) => void;

/**
 * What some store calls tell besides their time: the journal's entries written and calls pruned,
 * and a key claimed for a first send, which is the send the idempotency gate lets through to the
 * VMS (whatever its answer, late ones included). Named by the stores' methods, so renaming one
 * there fails the type check here.
 */
const storeCounts: {
  journal: Partial<Record<keyof JournalStore, Count>>;
  idempotencyKeys: Partial<Record<keyof IdempotencyKeyStore, Count>>;
} = {
  journal: {
    write: (metrics, args) => {
      const [records, late] = args as Parameters<JournalStore['write']>;
      metrics.journalWritten(records.length + late.length);
    },
    pruneReceivedBefore: (metrics, _args, result) => metrics.journalPrunedCalls(Number(result)),
    pruneOldest: (metrics, _args, result) => metrics.journalPrunedCalls(Number(result)),
  },
  idempotencyKeys: {
    insertInFlight: (metrics, _args, claimed) => {
      if (claimed === true) metrics.idempotencyForwarded();
    },
  },
};

/**
 * The names the concerns open their retention stores under (decision 060), and the label each
 * store's pruned rows are counted under.
 */
const retentionStores: Partial<Record<string, RetentionLabel>> = {
  resultsRetention: 'results',
  draftRetention: 'drafts',
  suiteRunRetention: 'suite_runs',
};

function countFor(store: string, operation: string): Count | undefined {
  const retention = retentionStores[store];
  if (retention !== undefined) {
    return operation === 'pruneBefore'
      ? (metrics, _args, result) => metrics.retentionPrunedRows(retention, Number(result))
      : undefined;
  }
  if (store !== 'journal' && store !== 'idempotencyKeys') return undefined;
  const counts: Partial<Record<string, Count>> = storeCounts[store];
  return counts[operation];
}

/**
 * `store` with each method call timed into the metrics. The calls themselves are untouched: the
 * same arguments, `this`, result and error; an answer that was a promise stays one.
 */
function timedStore<T extends object>(store: T, name: string, metrics: PortalMetrics): T {
  const wrappers = new Map<string | symbol, unknown>();
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const known = wrappers.get(property);
      if (known) return known;
      const operation = String(property);
      const counts = countFor(name, operation);
      const timer = metrics.databaseTimer(name, operation);
      const wrapper = (...args: unknown[]): unknown => {
        const started = performance.now();
        const done = (failed: boolean) => timer((performance.now() - started) / 1000, failed);
        let result: unknown;
        try {
          result = Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
        } catch (error) {
          done(true);
          throw error;
        }
        if (!isThenable(result)) {
          done(false);
          counts?.(metrics, args, result);
          return result;
        }
        return Promise.resolve(result).then(
          (resolved) => {
            done(false);
            counts?.(metrics, args, resolved);
            return resolved;
          },
          (error: unknown) => {
            done(true);
            throw error;
          },
        );
      };
      wrappers.set(property, wrapper);
      return wrapper;
    },
  });
}

/**
 * Times every store call into the metrics (db_query_duration_seconds), and counts the journal's
 * writes and prunes: the database applies it to each store a concern opens, so the timing stays out
 * of every store and every caller, and both databases are timed the same way. The name is the one
 * the concern opened its store under (the journal's, `journal`, is opened only with JOURNAL on).
 */
export function storeTimer(metrics: PortalMetrics): StoreWrapper {
  return (name, store) => timedStore(store, name, metrics);
}
