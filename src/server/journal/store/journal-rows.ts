import { isUtf8 } from 'node:buffer';
import {
  constants,
  createDeflateRaw,
  deflateRawSync,
  inflateRawSync,
  type DeflateRaw,
} from 'node:zlib';
import {
  journalFailures,
  journalOutcomes,
  type JournalBody,
  type JournalEntry,
  type JournalSummary,
} from '@/domain/journal';
import { vmsOperations } from '@/domain/vms-contract';
import { parseHeaders } from '@/server/store/headers-column';
import type { JournalWhere } from './journal-search';
import type { JournalRecord } from './journal-store';

/**
 * The journal's rows as SQLite returns them (and PostgreSQL, whose columns were chosen to read the
 * same), how they read as the API's entries, and how a body is packed to be stored.
 */

/** journal_calls' columns a write gives (the id is the store's), in the order of callValues. */
export const callColumns = `at, operation, method, path, url, client_org_id, vendor_org_id, item_count,
  batch_id, idempotency_key, replayed, status, upstream_status, outcome, error_code, failure,
  latency_ms, replay_of, unchecked, request_body, request_size, response_body, response_size,
  response_headers, user_id, user_email, connection, first_byte_ms, trace_id, suite_run`;
export const callColumnCount = callColumns.split(',').length;

/**
 * A call's values for callColumns, pushed onto `into` (SQLite reuses one array for a statement's
 * rows) and returned; the bodies are given as the ids the store kept them under.
 */
export function callValues(
  record: JournalRecord,
  requestBody: number | null,
  responseBody: number | null,
  into: Array<string | number | null> = [],
): Array<string | number | null> {
  into.push(
    record.at,
    record.operation,
    record.method,
    record.path,
    record.url,
    record.clientOrgId,
    record.vendorOrgId,
    record.itemCount,
    record.batchId,
    record.idempotencyKey,
    record.replayed ? 1 : 0,
    record.status,
    record.upstreamStatus,
    record.outcome,
    record.errorCode,
    record.failure,
    record.latencyMs,
    record.replayOf,
    record.unchecked ? 1 : 0,
    requestBody,
    record.requestBody?.size ?? null,
    responseBody,
    record.responseBody?.size ?? null,
    JSON.stringify(record.responseHeaders),
    record.sentBy?.userId ?? null,
    record.sentBy?.email ?? null,
    record.connection ?? null,
    record.firstByteMs ?? null,
    record.traceId ?? null,
    record.suiteRun ?? null,
  );
  return into;
}

export const summaryColumns = `id, at, operation, method, path, client_org_id, vendor_org_id, item_count,
  batch_id, idempotency_key, replayed, status, upstream_status, outcome, error_code, failure,
  latency_ms, replay_of, unchecked, request_size, response_size, user_id, user_email, connection, trace_id,
  suite_run`;

export interface SummaryRow {
  id: number;
  at: number;
  operation: string | null;
  method: string;
  path: string;
  client_org_id: number | null;
  vendor_org_id: number | null;
  item_count: number | null;
  batch_id: string | null;
  idempotency_key: string | null;
  replayed: number;
  status: number;
  upstream_status: number | null;
  outcome: string;
  error_code: string | null;
  failure: string | null;
  latency_ms: number;
  replay_of: number | null;
  unchecked: number;
  request_size: number | null;
  response_size: number | null;
  user_id: string | null;
  user_email: string | null;
  connection: string | null;
  trace_id: string | null;
  suite_run: number | null;
}

interface BodyColumns {
  size: number;
  sha256: Buffer;
  truncated: number;
  redacted: number;
  compressed: number;
  data: Buffer;
}

type Prefixed<P extends string, T> = { [K in keyof T as `${P}${K & string}`]: T[K] | null };

export type EntryRow = SummaryRow & {
  url: string | null;
  response_headers: string;
  first_byte_ms: number | null;
  late_status: number | null;
  late_latency_ms: number | null;
  late_headers: string | null;
} & Prefixed<'rq_', BodyColumns> &
  Prefixed<'rs_', BodyColumns> &
  Prefixed<'lt_', BodyColumns>;

const bodyColumnNames = ['size', 'sha256', 'truncated', 'redacted', 'compressed', 'data'] as const;

function bodyJoin(alias: 'rq' | 'rs' | 'lt', column: string): string {
  return `LEFT JOIN journal_bodies ${alias} ON ${alias}.id = c.${column}`;
}

/** A full entry's SELECT: the calls of `source` (a table or a subquery) as `c`, with their bodies. */
export function entrySelect(source: string): string {
  const columns = summaryColumns
    .split(',')
    .map((name) => `c.${name.trim()}`)
    .join(', ');
  const bodies = (['rq', 'rs', 'lt'] as const)
    .flatMap((alias) => bodyColumnNames.map((name) => `${alias}.${name} AS ${alias}_${name}`))
    .join(', ');
  return `SELECT ${columns}, c.url, c.response_headers, c.first_byte_ms, c.late_status, c.late_latency_ms,
    c.late_headers, ${bodies} FROM ${source} c ${bodyJoin('rq', 'request_body')}
    ${bodyJoin('rs', 'response_body')} ${bodyJoin('lt', 'late_body')}`;
}

/** Compressing costs ~1.6 µs per KB (deflate level 1) and JSON shrinks 10–30×: worth it past 1 KB. */
const compressFrom = 1024;

/** A body as stored, by packBody or BodyPacker. */
type Packed = { data: Buffer; compressed: 0 | 1 };

/** A body's bytes as stored: deflated when that is worth it (`compressed` 1), else as they are. */
export function packBody(kept: Buffer): Packed {
  if (kept.length < compressFrom) return { data: kept, compressed: 0 };
  const deflated = deflateRawSync(kept, { level: 1 });
  return deflated.length < kept.length
    ? { data: deflated, compressed: 1 }
    : { data: kept, compressed: 0 };
}

/** A body packed ahead of its write (BodyPacker), by the body it was made from. */
export type PackedBodies = ReadonlyMap<Buffer, Packed>;

/**
 * How many deflate streams pack side by side. A stream packs one body at a time, and each body's
 * answer comes back from zlib's thread on a turn of the event loop of its own; under load a turn
 * runs many requests, so one stream packed fewer bodies a second than the proxy forwarded, and the
 * journal fell behind until calls went unrecorded. Four streams keep up with libuv's four threads.
 */
const lanes = 4;

/**
 * packBody's work on a few long-lived deflate streams, not a zlib handle of its own for each body:
 * deflateRawSync makes and drops a handle per call, and under the proxy bench's new 31 KB body a
 * call those handles alone made V8 collect its heap in full several times a second (~100 µs of
 * CPU a call, decision 039). Each body is written, then its stream is flushed with Z_FULL_FLUSH:
 * its output starts with no reference to what came before, so it inflates on its own (readBody
 * inflates with Z_SYNC_FLUSH, as it has no final block). Bodies take the streams in turn.
 */
export class BodyPacker {
  private readonly lanes: (PackerLane | null)[] = Array.from({ length: lanes }, () => null);
  private next = 0;

  pack(kept: Buffer): Promise<Packed> {
    if (kept.length < compressFrom) return Promise.resolve({ data: kept, compressed: 0 });
    const at = this.next;
    this.next = (at + 1) % lanes;
    const lane = this.lanes[at] ?? new PackerLane(() => (this.lanes[at] = null));
    this.lanes[at] = lane;
    return lane.pack(kept);
  }

  /** Packs each body of `bodies` that `wanted` says is not stored yet, all of them at once. */
  async packAll(
    bodies: Iterable<Buffer>,
    wanted: (kept: Buffer) => boolean,
  ): Promise<PackedBodies> {
    const packing = new Map<Buffer, Promise<Packed>>();
    for (const kept of bodies) {
      if (!packing.has(kept) && kept.length >= compressFrom && wanted(kept)) {
        packing.set(kept, this.pack(kept));
      }
    }
    // Awaited together: a stream's failure rejects each of its bodies, and every one is handled.
    const bodiesPacked = await Promise.all(packing.values());
    return new Map([...packing.keys()].map((kept, index) => [kept, bodiesPacked[index] as Packed]));
  }

  close(): void {
    for (const lane of this.lanes) lane?.close();
    this.lanes.fill(null);
  }
}

/**
 * One deflate stream and the bodies written to it, answered in the order written. Its output is
 * read as it is pushed ('data', flowing): a flush's output has been handed over before the
 * flush's callback runs, so the body it closes is answered in that callback, with no turn of its
 * own. A stream that fails answers every body waiting on it with the error and is not used again.
 */
class PackerLane {
  private readonly stream: DeflateRaw = createDeflateRaw({ level: 1 });
  private chunks: Buffer[] = [];
  private readonly waiting: {
    kept: Buffer;
    resolve: (packed: Packed) => void;
    reject: (error: Error) => void;
  }[] = [];

  constructor(private readonly dropped: () => void) {
    this.stream.on('data', (chunk: Buffer) => this.chunks.push(chunk));
    this.stream.once('error', (error) => {
      this.dropped();
      for (const body of this.waiting.splice(0)) body.reject(error);
    });
  }

  pack(kept: Buffer): Promise<Packed> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ kept, resolve, reject });
      this.stream.write(kept);
      this.stream.flush(constants.Z_FULL_FLUSH, () => this.flushed());
    });
  }

  private flushed(): void {
    const body = this.waiting.shift();
    if (!body) return;
    const data = Buffer.concat(this.chunks);
    this.chunks = [];
    body.resolve(
      data.length < body.kept.length ? { data, compressed: 1 } : { data: body.kept, compressed: 0 },
    );
  }

  close(): void {
    this.stream.destroy();
  }
}

/** A page of full entries: chosen on the calls alone, then joined with their bodies. */
export function entryPageSql(where: JournalWhere): string {
  const chosen = `(SELECT * FROM journal_calls ${where.where} ${where.order} ${where.limit})`;
  return `${where.with}${entrySelect(chosen)} ${where.order.replace(/\b(at|id)\b/g, 'c.$1')}`;
}

function known<T extends string>(values: readonly T[], value: string | null): T | null {
  return values.find((candidate) => candidate === value) ?? null;
}

export function toSummary(row: SummaryRow): JournalSummary {
  return {
    id: row.id,
    at: new Date(row.at).toISOString(),
    // Written from the proxy's own operation list; a name it no longer knows reads as none.
    operation: vmsOperations.find(({ name }) => name === row.operation)?.name ?? null,
    method: row.method,
    path: row.path,
    clientOrgId: row.client_org_id,
    vendorOrgId: row.vendor_org_id,
    itemCount: row.item_count,
    batchId: row.batch_id,
    idempotencyKey: row.idempotency_key,
    replayed: row.replayed === 1,
    status: row.status,
    upstreamStatus: row.upstream_status,
    outcome: known(journalOutcomes, row.outcome) ?? 'forwarded',
    errorCode: row.error_code,
    failure: known(journalFailures, row.failure),
    latencyMs: row.latency_ms,
    replayOf: row.replay_of,
    unchecked: row.unchecked === 1,
    requestSize: row.request_size,
    responseSize: row.response_size,
    sentBy: row.user_id === null ? null : { userId: row.user_id, email: row.user_email ?? '' },
    connection: row.connection,
    traceId: row.trace_id,
    suiteRun: row.suite_run,
  };
}

function readBody(row: EntryRow, alias: 'rq' | 'rs' | 'lt'): JournalBody | null {
  const data = row[`${alias}_data`];
  const sha256 = row[`${alias}_sha256`];
  if (data === null || sha256 === null) return null;
  // Z_SYNC_FLUSH: a body BodyPacker made ends at a flush point, not at a final block.
  const bytes =
    row[`${alias}_compressed`] === 1
      ? inflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH })
      : data;
  const utf8 = isUtf8(bytes);
  return {
    text: bytes.toString(utf8 ? 'utf8' : 'base64'),
    encoding: utf8 ? 'utf8' : 'base64',
    size: row[`${alias}_size`] ?? bytes.length,
    sha256: sha256.toString('hex'),
    truncated: row[`${alias}_truncated`] === 1,
    redacted: row[`${alias}_redacted`] === 1,
  };
}

export function toEntry(row: EntryRow): JournalEntry {
  return {
    ...toSummary(row),
    url: row.url,
    requestBody: readBody(row, 'rq'),
    responseHeaders: parseHeaders(row.response_headers),
    responseBody: readBody(row, 'rs'),
    firstByteMs: row.first_byte_ms,
    lateAnswer:
      row.late_status === null
        ? null
        : {
            status: row.late_status,
            latencyMs: row.late_latency_ms ?? 0,
            headers: parseHeaders(row.late_headers),
            body: readBody(row, 'lt'),
          },
  };
}
