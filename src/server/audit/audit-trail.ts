import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { acceptedBatchId } from '@/domain/accepted-batch';
import type { ApiError } from '@/domain/api-error';
import { isAuditEvent } from '@/domain/audit';
import type { AuditEvent, AuditFields } from '@/server/accounts/audit';
import type { AuditSettings } from '@/server/config';
import { recordedPath } from '@/server/http/recorded-path';
import type { CallAnswerFields, CallLine } from '@/server/proxy/call-line';
import { actorOf, cleanDetails, clientOrgOf, connectionOf, text } from './audit-event-fields';
import type { AuditRecord, AuditStore } from './store/audit-events';

/** What a proxied call's log line says, as much of it as the trail keeps. */
export type SentCall = CallAnswerFields &
  Pick<CallLine, 'clientOrgId' | 'vendorOrgId' | 'connection' | 'audit'>;

/**
 * The refusals the trail records: a role, an org, a connection not granted; a CSRF or origin
 * check; an API token used outside its scope, or revoked, expired or unknown (a leaked token an
 * operator cut off shows here when it is tried again).
 */
const recordedRefusals: ReadonlySet<string> = new Set([
  'forbidden',
  'org_not_permitted',
  'connection_not_permitted',
  'csrf_failed',
  'token_scope',
  'token_invalid',
]);

/** Events made without a session that the trail keeps per minute; past it they are counted. */
const anonymousPerMinute = 120;
/** Events one transaction writes. */
const batchSize = 200;
/** Past this many waiting, events go unrecorded (their log lines are still written). */
const maxQueued = 10_000;
/** Retention deletes this many events per transaction, yielding in between. */
const pruneChunk = 500;

interface Pending {
  record: AuditRecord;
  /** A send's answer, read for its batch id when written rather than on the proxy's path. */
  answer?: Buffer;
}

export interface AuditTrailOptions {
  store: AuditStore;
  settings: AuditSettings;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  now?: () => number;
  /** How long an event may wait for others to share its transaction (default 50 ms). */
  flushDelayMs?: number;
  /** How often retention runs besides at start (default 10 minutes). */
  pruneEveryMs?: number;
}

/**
 * The audit trail (decision 036): events queued as they happen and written dozens per
 * transaction on a later turn, so that neither a send nor a sign-in waits for the database. A
 * write that fails is logged (no details) and its events go unrecorded; the log lines of the same
 * events are written either way. Events made without a session (failed sign-ins, refusals) are
 * kept up to a budget per minute, then counted in one `events_suppressed` row: whoever can reach
 * the portal must not be able to fill its disk.
 */
export class AuditTrail {
  private readonly now: () => number;
  private readonly flushDelayMs: number;
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate = false;
  private writing: Promise<void> = Promise.resolve();
  private failing = false;
  private overflowing = false;
  private closed = false;
  private readonly pruneTimer: NodeJS.Timeout;
  private windowStart = 0;
  private windowCount = 0;
  private suppressed = 0;

  constructor(private readonly options: AuditTrailOptions) {
    this.now = options.now ?? Date.now;
    this.flushDelayMs = options.flushDelayMs ?? 50;
    this.pruneTimer = setInterval(() => void this.prune(), options.pruneEveryMs ?? 10 * 60_000);
    this.pruneTimer.unref();
    void this.prune();
  }

  /**
   * An event of sign-in and accounts (auth.audit): who acted is the request's signed-in user,
   * else the account the event names (a failed sign-in's, a sign-out's); when an admin acted on
   * another account, that account is `targetUserId` and `targetEmail` in the details.
   */
  auth(event: AuditEvent, fields: AuditFields, request?: FastifyRequest): void {
    const { userId, email, address, connection, ...rest } = fields;
    const { user: actor, via } = actorOf(request);
    const details = { ...cleanDetails(rest), ...via };
    if (actor && typeof userId === 'string' && userId !== actor.id) {
      details.targetUserId = userId;
      details.targetEmail = text(email);
    }
    if (event === 'sign_in_failed' && !this.admitAnonymous(request)) return;
    this.push({
      record: {
        at: this.now(),
        event,
        userId: actor?.id ?? text(userId),
        email: actor ? actor.email : text(email),
        connection: text(connection),
        address: request?.ip ?? text(address),
        outcome: event === 'sign_in_failed' ? 'failed' : 'ok',
        status: event === 'sign_in_failed' ? (rest.reason === 'throttled' ? 429 : 401) : null,
        details,
        traceId: request?.traceContext?.traceId ?? null,
      },
    });
  }

  /**
   * What the portal did by itself, with no request to act in: a notification delivered or given
   * up on. `userId` and `email` are whom it concerned.
   */
  unattended(
    event: AuditEvent,
    fields: {
      userId: string | null;
      email: string | null;
      connection: string | null;
      outcome: 'ok' | 'failed';
      status: number | null;
      details: AuditFields;
    },
  ): void {
    this.push({
      record: {
        at: this.now(),
        event,
        userId: fields.userId,
        email: fields.email,
        connection: fields.connection,
        address: null,
        outcome: fields.outcome,
        status: fields.status,
        details: cleanDetails(fields.details),
        traceId: null,
      },
    });
  }

  /** A call through the proxy: a POST is a send and recorded; a read is not. */
  send(request: FastifyRequest, line: SentCall, answer: Buffer): void {
    if (line.audit !== true) return;
    const { user, via } = actorOf(request);
    this.push({
      record: {
        at: this.now(),
        event: 'send',
        userId: user?.id ?? null,
        email: user?.email ?? null,
        connection: line.connection,
        address: request.ip,
        outcome: line.status < 400 ? 'ok' : 'failed',
        status: line.status,
        details: {
          operation: line.operation,
          clientOrgId: line.clientOrgId,
          vendorOrgId: line.vendorOrgId,
          itemCount: line.itemCount,
          upstreamStatus: line.upstreamStatus,
          replayed: line.replayed,
          durationMs: line.durationMs,
          idempotencyKey: line.idempotencyKey ?? null,
          batchId: null,
          ...via,
        },
        traceId: request.traceContext?.traceId ?? null,
      },
      ...(line.status < 300 ? { answer } : {}),
    });
  }

  /** A call the portal refused with 403, or 401 for an API token (the error handler's, for every route). */
  refused(request: FastifyRequest, error: ApiError): void {
    if (!recordedRefusals.has(error.code)) return;
    if (!this.admitAnonymous(request)) return;
    const { user, via } = actorOf(request);
    const path = recordedPath(request.raw.url ?? '');
    this.push({
      record: {
        at: this.now(),
        event: 'refused',
        userId: user?.id ?? null,
        email: user?.email ?? null,
        connection: path.startsWith('/api/vms/') ? connectionOf(request) : null,
        address: request.ip,
        outcome: 'refused',
        status: error.statusCode,
        details: {
          ...cleanDetails({
            code: error.code,
            method: request.method,
            path,
            clientOrgId: clientOrgOf(request),
            fields: error.details.flatMap((detail) => (detail.field ? [detail.field] : [])),
            // Why a token was refused: revoked, expired, unknown, account_disabled.
            reason:
              error.code === 'token_invalid' ? (error.details[0]?.message ?? null) : undefined,
          }),
          ...via,
        },
        traceId: request.traceContext?.traceId ?? null,
      },
    });
  }

  /** Writes everything queued so far. */
  async flush(): Promise<void> {
    this.writing = this.writing.then(() => this.drain());
    await this.writing;
  }

  /** The store to read the trail from, every event queued so far written first (one just made shows). */
  async reader(): Promise<AuditStore> {
    await this.flush();
    return this.options.store;
  }

  /** Writes what is queued and stops taking events; later ones are only logged. */
  async close(): Promise<void> {
    clearInterval(this.pruneTimer);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.noteSuppressed();
    this.closed = true;
    await this.flush();
  }

  /**
   * Events older than AUDIT_RETENTION_DAYS go, in chunks, yielding between them. A count of
   * events not kept in a minute now past is written too, should nothing have come since to write it.
   */
  async prune(): Promise<void> {
    if (this.now() - this.windowStart >= 60_000) this.noteSuppressed();
    try {
      const { store } = this.options;
      const cutoff = this.now() - this.options.settings.retentionMs;
      while ((await store.pruneBefore(cutoff, pruneChunk)) === pruneChunk) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      this.options.log.warn(
        { reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown' },
        'audit trail: could not prune old events',
      );
    }
  }

  /** Whether an event made without a session fits this minute's budget. */
  private admitAnonymous(request: FastifyRequest | undefined): boolean {
    if (request?.portalSession) return true;
    const now = this.now();
    if (now - this.windowStart >= 60_000) {
      this.noteSuppressed();
      this.windowStart = now;
      this.windowCount = 0;
    }
    if (this.windowCount >= anonymousPerMinute) {
      this.suppressed += 1;
      return false;
    }
    this.windowCount += 1;
    return true;
  }

  private noteSuppressed(): void {
    if (this.suppressed === 0) return;
    this.push({
      record: {
        at: this.now(),
        event: 'events_suppressed',
        userId: null,
        email: null,
        connection: null,
        address: null,
        outcome: 'refused',
        status: null,
        details: {
          suppressed: this.suppressed,
          since: new Date(this.windowStart).toISOString(),
          perMinute: anonymousPerMinute,
        },
        traceId: null,
      },
    });
    this.suppressed = 0;
  }

  private push(pending: Pending): void {
    if (this.closed) return;
    // The types already say so; this keeps a name from outside the domain's list (through a cast,
    // or a caller in plain JavaScript) out of the trail, whose page could not name it.
    if (!isAuditEvent(pending.record.event)) {
      this.options.log.error(
        { event: String(pending.record.event) },
        "audit trail: an event not in the domain's list was not recorded",
      );
      return;
    }
    if (this.queue.length >= maxQueued) {
      if (!this.overflowing) {
        this.overflowing = true;
        this.options.log.warn(
          { queued: this.queue.length },
          'audit trail: writing is far behind; events go unrecorded until it catches up',
        );
      }
      return;
    }
    this.queue.push(pending);
    this.schedule();
  }

  /** A write on a later turn: at once when a batch is full, else after flushDelayMs. */
  private schedule(): void {
    if (this.immediate) return;
    if (this.queue.length >= batchSize) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.immediate = true;
      setImmediate(() => {
        this.immediate = false;
        void this.flush();
      });
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.flushDelayMs);
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, batchSize);
      const records = batch.map(({ record, answer }) =>
        answer
          ? { ...record, details: { ...record.details, batchId: acceptedBatchId(200, answer) } }
          : record,
      );
      try {
        await this.options.store.append(records);
        if (this.failing) {
          this.failing = false;
          this.options.log.warn({}, 'audit trail: events are written again');
        }
        this.overflowing = false;
      } catch (error) {
        if (!this.failing) {
          this.failing = true;
          this.options.log.error(
            {
              reason: error instanceof Error ? error.message.slice(0, 300) : 'unknown',
              dropped: records.length,
            },
            'audit trail: events could not be written; they are in the log only',
          );
        }
      }
    }
  }
}
