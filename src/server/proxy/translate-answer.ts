import type { FastifyBaseLogger } from 'fastify';
import { answerFromVms, shownListFromVms, unreadableRecordDates } from '@/domain/vms-profile';
import type { CallNote } from './call-note';
import type { CallOutcome } from './idempotency-key';
import { listTotalHeaders } from './list-total';
import type { Channel } from './proxy-channel';
import type { VmsAnswer } from './vms-call';
import type { VmsOperation } from './vms-operations';

/** The call an answer is translated for: its log (with its id) and its method. */
export interface TranslatedCall {
  id: string;
  method: string;
  log: FastifyBaseLogger;
}

/**
 * The proxy's translate step, for a connection whose VMS speaks another dialect than the
 * portal's: its answers read with the connection's profile and given to the browser in the
 * portal's own dialect. The journal keeps each answer as the VMS sent it.
 */
/** What the translator counts (the metrics, on the instance): records whose date it could not read. */
export interface UnreadableDateCount {
  unreadableDate(connection: string, field: 'created' | 'updated', count: number): void;
}

export class AnswerTranslator {
  /** Connections and fields whose unreadable record dates were logged: once each, not per list. */
  private readonly unreadableLogged = new Set<string>();

  constructor(
    /** The server's log: a connection's unreadable dates are said there once. */
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    private readonly metrics: UnreadableDateCount | null = null,
  ) {}

  /**
   * A VMS's answer in the portal's own dialect. One the profile does not describe goes on as it
   * came (a warning says why), so the user sees what the VMS said; a 2xx stays a 2xx, so the
   * idempotency key is settled and the batch is never sent again.
   */
  translated(
    channel: Channel,
    call: TranslatedCall,
    operation: VmsOperation,
    query: string,
    answer: VmsAnswer,
    note: CallNote | undefined,
  ): CallOutcome {
    const { outcome } = answer;
    if (operation === 'requisitions' && outcome.status >= 200 && outcome.status < 300) {
      const records = shownListFromVms(channel.profile, outcome.body.toString('utf8'));
      if (Array.isArray(records)) {
        if (note) note.upstreamBody = outcome.body;
        return this.listOutcome(
          channel,
          records,
          listTotalHeaders(channel.profile, outcome.body.toString('utf8'), call.log),
          outcome.status,
          outcome.headers,
        );
      }
    }
    const batchId = new URLSearchParams(query.slice(1)).get('batchid') ?? '';
    const text = answerFromVms(
      channel.profile,
      operation,
      outcome.status,
      outcome.body.toString('utf8'),
      { batchId },
    );
    if (note) note.upstreamBody = outcome.body;
    if (typeof text !== 'string') {
      call.log.warn(
        { reqId: call.id, operation, upstreamStatus: outcome.status, problem: text.unreadable },
        'vms answer not in its profile',
      );
      return outcome;
    }
    if (note && call.method === 'POST' && outcome.status < 300) {
      note.batchId = (JSON.parse(text) as { batchid: string }).batchid;
    }
    return {
      status: outcome.status,
      headers: { ...outcome.headers, 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(text),
    };
  }

  /** A whole list as the page gets it, its unreadable dates counted on the way. */
  listOutcome(
    channel: Channel,
    records: readonly unknown[],
    total: Record<string, string>,
    status: number,
    headers: CallOutcome['headers'] = {},
  ): CallOutcome {
    this.noteUnreadableDates(channel, records);
    return {
      status,
      headers: { ...headers, ...total, 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify(records)),
    };
  }

  /**
   * Counts the records of a list whose created or updated time the profile could not read (they
   * go on as the VMS wrote them, and the page shows them so with a warning), and says so in the
   * log once per connection and field: the administrator's cue to run the connection check.
   */
  private noteUnreadableDates(channel: Channel, records: readonly unknown[]): void {
    const counts = unreadableRecordDates(records);
    const connection = channel.connection.name;
    for (const field of ['created', 'updated'] as const) {
      if (counts[field] === 0) continue;
      this.metrics?.unreadableDate(connection, field, counts[field]);
      const key = `${connection}\u0000${field}`;
      if (this.unreadableLogged.has(key)) continue;
      this.unreadableLogged.add(key);
      this.log.warn(
        {
          connection,
          field,
          records: counts[field],
          setting: 'dates.dateTimes',
          pattern: channel.profile.dates.dateTimes,
        },
        'vms record dates not in its profile',
      );
    }
  }
}
