import { createHash } from 'node:crypto';
import { PortalError } from './portal-error';

/** What the portal answered for one call: enough to answer a repeat of it identically. */
export interface CallOutcome {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Entry {
  fingerprint: string;
  outcome: Promise<CallOutcome>;
  /** Set once a 2xx answer is remembered; until then the call is in flight. */
  expiresAt: number | null;
}

export type IdempotencyClaim =
  /** First sight of the key: forward the call, then `settle` with what came back. */
  | { kind: 'first'; settle(outcome: CallOutcome): void }
  /** A repeat, or a duplicate of a call still in flight: answer with this outcome. */
  | { kind: 'repeat'; outcome: Promise<CallOutcome> };

export interface IdempotencyOptions {
  maxKeys?: number;
  ttlMs?: number;
  now?: () => number;
}

/** `Idempotency-Key` values: a UUID from the browser, or any similar opaque token. */
const keyPattern = /^[A-Za-z0-9._:-]{1,128}$/;

export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !keyPattern.test(value)) {
    throw new PortalError(
      'invalid_parameter',
      'The Idempotency-Key header must be one token of 1 to 128 letters, digits or . _ : - (a UUID works). Send a new key for each new batch.',
      [{ field: 'Idempotency-Key', message: 'malformed' }],
    );
  }
  return value;
}

/** The same key may only ever stand for the same operation, orgs and body bytes. */
export function callFingerprint(method: string, url: string, body: Buffer | undefined): string {
  const hash = createHash('sha256').update(`${method} ${url}\n`);
  if (body) hash.update(body);
  return hash.digest('hex');
}

/**
 * Architecture.md, "Data never lost": a retry of the same batch is recognised by the proxy and not
 * sent twice. The browser sends one `Idempotency-Key` per batch; the first call with a key is
 * forwarded, a repeat gets the remembered answer, and a duplicate that arrives while the first is
 * in flight waits for it. Only 2xx answers are remembered: a failed send may be retried for real.
 * In memory and bounded (oldest keys go first), which is enough for one portal process; a restart
 * forgets, and the VMS's own duplicate checks are the backstop.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxKeys: number;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: IdempotencyOptions = {}) {
    this.maxKeys = options.maxKeys ?? 10_000;
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  claim(key: string, fingerprint: string): IdempotencyClaim {
    const existing = this.entries.get(key);
    if (existing && existing.expiresAt !== null && existing.expiresAt <= this.now()) {
      this.entries.delete(key);
    } else if (existing) {
      if (existing.fingerprint !== fingerprint) {
        throw new PortalError(
          'idempotency_conflict',
          'This Idempotency-Key was already used for a different request (another operation, org or body). Send a new key for each new batch.',
          [{ field: 'Idempotency-Key', message: 'already used for a different request' }],
        );
      }
      return { kind: 'repeat', outcome: existing.outcome };
    }

    let resolve!: (outcome: CallOutcome) => void;
    const entry: Entry = {
      fingerprint,
      outcome: new Promise<CallOutcome>((done) => (resolve = done)),
      expiresAt: null,
    };
    this.entries.set(key, entry);
    this.evictOldest();

    return {
      kind: 'first',
      settle: (outcome) => {
        resolve(outcome);
        // The entry may have been evicted or replaced meanwhile; only touch our own.
        if (this.entries.get(key) !== entry) return;
        if (outcome.status >= 200 && outcome.status < 300) {
          entry.expiresAt = this.now() + this.ttlMs;
        } else {
          this.entries.delete(key);
        }
      },
    };
  }

  private evictOldest(): void {
    // A Map iterates in insertion order, so the first keys are the oldest.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxKeys) return;
      this.entries.delete(key);
    }
  }
}
