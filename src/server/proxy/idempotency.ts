import { ApiError } from '@/domain/api-error';
import { withDeadline } from '@/server/ops/deadline';
import { drainingError } from '@/server/ops/drain';
import {
  errorOutcome,
  outcomeUnknownError,
  sameCall,
  sentAfterBackupError,
  type CallOutcome,
  type Fingerprint,
  type ForwardResult,
  type GateOutcome,
  type GateRefusal,
} from './idempotency-key';
import type { IdempotencyKeyStore } from './store/idempotency-keys';

export type Admission =
  /** First sight of the key: forward the call, then `finish` with how it ended. */
  | { kind: 'first'; finish(result: ForwardResult): Promise<CallOutcome> }
  /** The first call with this key is still waiting for the VMS in this process. */
  | { kind: 'in_flight'; answer: Promise<CallOutcome> }
  /**
   * The first call with this key is still waiting for the VMS in another process (a shared
   * database), longer than this repeat was willing to wait: answer "still waiting".
   */
  | { kind: 'in_flight_elsewhere' }
  /** A repeat of a call the VMS accepted: answer it again. */
  | { kind: 'replay'; outcome: CallOutcome };

/** A keyed call as the gate runs it (IdempotencyGate.pass). */
export interface KeyedCall {
  /**
   * Sends the call to the VMS and resolves with how it ended, however long that takes (up to the
   * late-answer wait): the answer settles the key even after the browser stopped waiting.
   */
  send(): Promise<ForwardResult>;
  /** How long the browser waits for an answer, in milliseconds. */
  timeoutMs: number;
  /** Whether the process began to drain (then a key just recorded is freed, nothing sent). */
  draining(): boolean;
  /** Told of the key's first call while it is at the VMS, so a drain can wait for it. */
  settling?(call: Promise<unknown>): void;
  /** The answer of a call whose browser was told `waiting` (first), once it came. */
  lateAnswer?(result: ForwardResult, answer: CallOutcome): void;
}

const refusals: Record<string, GateRefusal['kind'] | undefined> = {
  outcome_unknown: 'unknown',
  idempotency_conflict: 'conflict',
  store_unavailable: 'unavailable',
};

function storeUnavailable(error: unknown, setting: string): ApiError {
  return new ApiError(
    'store_unavailable',
    `The portal cannot record sends right now, so nothing was sent (its database ${setting} failed: ${error instanceof Error ? error.message : String(error)}). Try again in a moment; if it keeps happening, tell the administrator.`,
  );
}

export interface IdempotencyGateOptions {
  /** How long a key is kept after it was first used. */
  ttlMs?: number;
  now?: () => number;
  /**
   * Told of every database failure (the error) and of every success after one (null), so health
   * can say "degraded" while writes fail. A failed outcome write does not fail the answer.
   */
  onStoreHealth?: (error: unknown) => void;
  /**
   * Other processes use the same database (PostgreSQL): a key in flight there is waited for, not
   * read as "its process is gone", and start-up leaves the others' calls in flight alone.
   */
  shared?: boolean;
  /** How long a repeat waits for another process's call with the same key (shared only). */
  waitElsewhereMs?: number;
  /**
   * Past this age a key still in flight has no process waiting for its answer any more (the
   * proxy gives up on the VMS after VMS_LATE_ANSWER_MS): its outcome is unknown.
   */
  abandonedAfterMs?: number;
  /** How often a repeat reads the key again while another process's call is in flight. */
  pollMs?: number;
  /** The setting naming the database, for messages (default PORTAL_DB). */
  databaseSetting?: string;
}

/**
 * Decision 002: a batch reaches the VMS once, whatever happens to its answer. Keys are written
 * to the portal's database before the call leaves and settled with the VMS's answer, even one
 * that comes after the browser was told 504. A repeat of an accepted batch gets the remembered
 * answer; a repeat while the first is still waiting waits for it; a repeat of a call whose
 * answer never came is refused with `outcome_unknown`, never forwarded blindly.
 */
export class IdempotencyGate {
  /** This process's calls still waiting for the VMS: a repeat waits for the same answer. */
  private readonly inFlight = new Map<string, Promise<CallOutcome>>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  private failing = false;
  private readonly shared: boolean;
  private readonly abandonedAfterMs: number;

  constructor(
    private readonly store: IdempotencyKeyStore,
    private readonly options: IdempotencyGateOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.now = options.now ?? Date.now;
    this.shared = options.shared ?? false;
    this.abandonedAfterMs = options.abandonedAfterMs ?? this.ttlMs;
  }

  private storeWorked(): void {
    if (!this.failing) return;
    this.failing = false;
    this.options.onStoreHealth?.(null);
  }

  private storeFailed(error: unknown): void {
    this.failing = true;
    this.options.onStoreHealth?.(error);
  }

  /**
   * At start-up: what was in flight when the last process stopped has no known outcome. With a
   * shared database only the calls no process can still be waiting for (the others' are theirs).
   */
  async recover(): Promise<void> {
    const now = this.now();
    await this.store.markInFlightUnknown(now, this.shared ? now - this.abandonedAfterMs : now);
    await this.purge();
  }

  /** Drops keys older than the retention (24 h); calls still in flight are never that old. */
  purge(): Promise<number> {
    return this.store.purgeCreatedUpTo(this.now() - this.ttlMs);
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * A drain's end: this process's calls still waiting for the VMS will not be waited for any
   * longer, so their keys become unknown now, in the database, where every other process reads
   * them at once (409 outcome_unknown) instead of waiting for an owner that is going away. The
   * calls themselves are left to end (the proxy aborts them); should an answer still slip in, it
   * settles or frees the key as usual, which is only ever more truthful. Returns how many keys
   * were marked; one whose write fails stays `in_flight`, which reads as unknown too.
   */
  async abandonInFlight(): Promise<number> {
    let marked = 0;
    for (const key of [...this.inFlight.keys()]) {
      try {
        if (await this.store.markUnknown(key, this.now())) marked += 1;
        this.storeWorked();
      } catch (error) {
        this.storeFailed(error);
      }
    }
    return marked;
  }

  /**
   * The whole of a keyed call (decision 002): the key recorded, then the call sent once (the
   * first time), or a remembered or awaited answer (a repeat), or a refusal; see GateOutcome.
   * Nothing here throws: a refusal is an outcome, with the error to answer it with.
   */
  async pass(key: string, fingerprint: Fingerprint, call: KeyedCall): Promise<GateOutcome> {
    let admission: Admission;
    try {
      admission = await this.admit(key, fingerprint);
    } catch (error) {
      const kind = error instanceof ApiError ? refusals[error.code] : undefined;
      if (error instanceof ApiError && kind !== undefined) return { kind, error };
      throw error;
    }
    switch (admission.kind) {
      case 'replay':
        return { kind: 'replayed', answer: admission.outcome };
      case 'in_flight_elsewhere':
        return { kind: 'waiting', first: false };
      case 'in_flight':
        return withDeadline<GateOutcome>(
          admission.answer.then((answer) => ({ kind: 'replayed', answer })),
          call.timeoutMs,
          () => ({ kind: 'waiting', first: false }),
        );
      case 'first':
        break;
    }
    if (call.draining()) {
      // The drain began while this key was being recorded: it is freed again, unsent.
      const failure = drainingError();
      return { kind: 'draining', answer: await admission.finish({ kind: 'not_sent', failure }) };
    }
    // Not abandoned when the browser's wait ends: a late answer still settles the key.
    let late = false;
    const settled = call.send().then(async (result) => {
      const answer = await admission.finish(result);
      if (late) call.lateAnswer?.(result, answer);
      return { kind: 'forwarded', result, answer } satisfies GateOutcome;
    });
    call.settling?.(settled);
    return withDeadline<GateOutcome>(settled, call.timeoutMs, () => {
      late = true;
      return { kind: 'waiting', first: true };
    });
  }

  async admit(key: string, fingerprint: Fingerprint): Promise<Admission> {
    const admission = await this.tryAdmit(key, fingerprint);
    this.storeWorked();
    return admission;
  }

  private async tryAdmit(key: string, fingerprint: Fingerprint): Promise<Admission> {
    const waitUntil = performance.now() + (this.shared ? (this.options.waitElsewhereMs ?? 0) : 0);
    const recordedAs = typeof fingerprint === 'string' ? fingerprint : fingerprint.value;
    try {
      for (let attempt = 0; attempt < 3;) {
        if (await this.store.insertInFlight(key, recordedAs, this.now())) {
          return this.first(key);
        }
        const record = await this.store.find(key);
        if (!record) {
          attempt += 1; // purged, or forgotten by another process, in between: claim it again
          continue;
        }
        if (!sameCall(fingerprint, record.fingerprint)) {
          throw new ApiError(
            'idempotency_conflict',
            'This Idempotency-Key was already used for a different request (another operation, org or body). Send a new key for each new batch.',
            [{ field: 'Idempotency-Key', message: 'already used for a different request' }],
          );
        }
        if (record.state !== 'in_flight' && record.createdAt + this.ttlMs <= this.now()) {
          await this.store.forget(key); // expired: the key is free again
          attempt += 1;
          continue;
        }
        if (record.state === 'settled') return { kind: 'replay', outcome: record.outcome };
        const answer = this.inFlight.get(key);
        if (record.state === 'in_flight' && answer) return { kind: 'in_flight', answer };
        if (
          record.state === 'in_flight' &&
          this.shared &&
          record.createdAt > this.now() - this.abandonedAfterMs
        ) {
          // Another process's call: read the key again until it settles, is forgotten (then
          // this repeat claims it) or becomes unknown, for as long as this repeat may wait.
          if (performance.now() >= waitUntil) return { kind: 'in_flight_elsewhere' };
          await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 100));
          continue;
        }
        // Unknown, or in flight in a process that is gone.
        if (record.state === 'unknown' && record.sentAfterBackup) {
          throw sentAfterBackupError(record.sentAfterBackup);
        }
        throw outcomeUnknownError();
      }
      throw outcomeUnknownError();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      this.storeFailed(error);
      throw storeUnavailable(error, this.options.databaseSetting ?? 'PORTAL_DB');
    }
  }

  private first(key: string): Admission {
    let resolve!: (outcome: CallOutcome) => void;
    const answer = new Promise<CallOutcome>((done) => (resolve = done));
    this.inFlight.set(key, answer);
    return {
      kind: 'first',
      finish: async (result) => {
        const outcome = await this.record(key, result);
        this.inFlight.delete(key);
        resolve(outcome);
        return outcome;
      },
    };
  }

  /** Writes how the call ended; the answer goes out even when the write fails. */
  private async record(key: string, result: ForwardResult): Promise<CallOutcome> {
    const write = async (): Promise<CallOutcome> => {
      switch (result.kind) {
        case 'answered':
          // Only an accepted call is remembered; a refusal may be corrected and sent for real.
          if (result.outcome.status >= 200 && result.outcome.status < 300) {
            await this.store.settle(key, result.outcome, this.now());
          } else {
            await this.store.forget(key);
          }
          return result.outcome;
        case 'not_sent':
          await this.store.forget(key);
          return errorOutcome(result.failure);
        case 'uncertain':
          await this.store.markUnknown(key, this.now());
          return errorOutcome(outcomeUnknownError());
      }
    };
    try {
      const outcome = await write();
      this.storeWorked();
      return outcome;
    } catch (error) {
      // The key stays `in_flight` in the database, which a later repeat reads as "unknown": the
      // safe side. The answer itself still reaches whoever is waiting.
      this.storeFailed(error);
      return result.kind === 'answered' ? result.outcome : errorOutcome(result.failure);
    }
  }
}

/** Where the gate reports: the server's logger. */
interface GateLog {
  info(message: string): void;
  error(details: { err: unknown }, message: string): void;
}

/**
 * The gate as the proxy runs it: recovered from the last run (in-flight keys become unknown),
 * purged hourly, with database failures logged and reported to health (null: working again).
 */
export async function startIdempotencyGate(
  store: IdempotencyKeyStore,
  log: GateLog,
  onDatabaseHealth?: (problem: string | null) => void,
  sharing: Pick<
    IdempotencyGateOptions,
    'shared' | 'waitElsewhereMs' | 'abandonedAfterMs' | 'databaseSetting'
  > = {},
): Promise<{ gate: IdempotencyGate; stop(): void }> {
  const gate = new IdempotencyGate(store, {
    ...sharing,
    onStoreHealth: (error) => {
      if (error === null) {
        log.info('portal database writes work again');
        onDatabaseHealth?.(null);
        return;
      }
      log.error({ err: error }, 'portal database failed a write');
      onDatabaseHealth?.(
        `portal database (${sharing.databaseSetting ?? 'PORTAL_DB'}): ${error instanceof Error ? error.message : String(error)}`,
      );
    },
  });
  await gate.recover();
  const purgeTimer = setInterval(
    () => gate.purge().catch((error: unknown) => log.error({ err: error }, 'purge failed')),
    60 * 60 * 1000,
  );
  purgeTimer.unref();
  return { gate, stop: () => clearInterval(purgeTimer) };
}
