import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Pool } from 'undici';
import { ApiError } from '@/domain/api-error';
import { describeOperations } from '@/domain/vms-contract';
import { connectionHeader } from '@/domain/vms-contract';
import {
  answerFromVms,
  joinQuery,
  listRecordsFromVms,
  unreadableRecordDates,
  pageSize,
  sandboxProfile,
  speaksOwnDialect,
  vmsCallPath,
  shownListFromVms,
  withoutMisreadDates,
  withPage,
} from '@/domain/vms-profile';
import type { VmsProfile } from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import { checkUserScope } from '@/server/accounts/user-scope';
import type { Connection, PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { traceScope } from '@/server/http/trace-context';
import { drainingError, type PortalLifecycle } from '@/server/ops/drain';
import { CredentialScrubber } from '@/server/redaction/credential-scrub';
import { checkBatchBody } from './batch-body';
import type { CallLine } from './call-line';
import {
  connectionNamedBy,
  requestedConnection,
  type ConnectionUpstreams,
} from './connection-upstreams';
import {
  callFingerprint,
  errorOutcome,
  startIdempotencyGate,
  parseIdempotencyKey,
  upstreamStatusOf,
  type CallOutcome,
  type ForwardResult,
  type GateOutcome,
} from './idempotency';
import { listTotalHeaders } from './list-total';
import { journalHeaders, ProxyTap, type CallNote } from './proxy-tap';
import { pickHeaders, readBody, withDeadline } from './upstream-answer';
import { certainlyNotSent, upstreamFailure } from './upstream-failure';
import {
  checkOrgScope,
  forwardedQuery,
  vmsOperations,
  type Query,
  type VmsOperation,
} from './vms-operations';

export interface VmsProxyOptions {
  config: PortalConfig;
  /** Where each connection's operations are sent. */
  upstreams: ConnectionUpstreams;
  /** Told when the database fails a write (a reason) and when it works again (null). */
  onDatabaseHealth?: (problem: string | null) => void;
  /** The process's shutdown state: draining refuses new sends; the drain settles the calls. */
  lifecycle?: PortalLifecycle;
}

/** Most pages of a paged requisition list read for one call: 1,000 pages of the profile's size. */
const maxListPages = 1000;

/** One VMS answer as callVms read it. */
interface VmsAnswer {
  outcome: CallOutcome;
  /** The address called, for the journal. */
  url: string;
  journalHeaders: Record<string, string>;
  signature: string;
  latencyMs: number;
}

/**
 * Everything the proxy keeps for one connection: where its VMS is, the pool of sockets to it, how
 * its calls are signed and translated, and the credentials its answers are cleaned of.
 */
interface Channel {
  connection: Connection;
  upstream: URL;
  /** The base URL's path, ending in `/`: operation paths are appended to it. */
  basePath: string;
  host: string;
  pool: Pool;
  profile: VmsProfile;
  /** The VMS speaks another dialect than the portal's: calls and answers are translated. */
  translating: boolean;
  credentials: CredentialScrubber;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The connection a proxied call was found to be for; null before (or outside the proxy). */
    vmsChannel: Channel | null;
  }
}

interface ProxyRoute {
  Querystring: Query;
}
type ProxyRequest = FastifyRequest<ProxyRoute>;

/** Tells the browser and QA that an answer is a remembered one, not a new send. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The signing proxy under /api/vms (decision 001). Forwards exactly the five operations, after checking the orgs and the batch shape,
 * signs each call afresh, and answers with the upstream's status and body unchanged but for an
 * echoed credential, which is replaced (credential-scrub.ts). Everything
 * else under /api/vms is a 404 that never leaves the machine.
 */
const forwarding: FastifyPluginAsync<VmsProxyOptions> = async (
  app,
  { config, upstreams, onDatabaseHealth, lifecycle },
) => {
  // Made once, not per request; see CallLine for why it has no redaction.
  const callLog = app.log.child({}, { redact: [] });
  // The proxy keeps its idempotency keys in the portal database (proxy-store-plugin.ts).
  const { database } = app;
  const { gate: idempotency, stop: stopIdempotency } = await startIdempotencyGate(
    app.idempotencyKeys,
    app.log,
    onDatabaseHealth,
    {
      shared: database.shared,
      // A repeat may wait for another process's call as long as for one of its own.
      waitElsewhereMs: Math.max(...config.connections.map((connection) => connection.timeoutMs)),
      abandonedAfterMs:
        Math.max(...config.connections.map((connection) => connection.lateAnswerMs)) + 60_000,
      databaseSetting: database.setting,
    },
  );
  /** Keyed calls whose upstream answer is still awaited (they may outlive their request). */
  const settling = new Set<Promise<unknown>>();
  /** Calls without a key still at the VMS: a drain lets them finish too. */
  const unkeyed = new Set<Promise<unknown>>();
  /** Calls that got their answer (or failed) since the drain began, for its report. */
  let finishedWhileDraining = 0;
  /** Keeps `call` in `calls` until it ends, and counts it if it ends during a drain. */
  function track(calls: Set<Promise<unknown>>, call: Promise<unknown>): void {
    calls.add(call);
    // Whoever awaits the call sees its failure; this bookkeeping must not add an unhandled one.
    call
      .finally(() => {
        calls.delete(call);
        if (lifecycle?.draining) finishedWhileDraining += 1;
      })
      .catch(() => {});
  }
  // Every answer under this prefix is recorded by one hook (decision 025), refusals included,
  // except (sign-in on) those to calls made without a session.
  const { journal } = app;
  const tap = journal
    ? new ProxyTap(journal, `${app.prefix}/`, journalConnectionOf, config.auth.required)
    : null;
  app.decorateRequest('journalNote', null);
  if (tap) app.addHook('onSend', tap.onSend);

  // undici straight, not @fastify/reply-from: the proxy buffers the answer anyway (it is
  // remembered for retries), so reply-from's streaming, header rewriting and URL cache were pure
  // overhead — about a fifth of the proxy's CPU per call in bench/proxy.ts.
  const channels = new Map<string, Channel>();
  for (const connection of config.connections) {
    const url = upstreams.urlOf(connection);
    // A sandbox connection without a sandbox to call: its calls are refused (channelOf).
    if (url === null) continue;
    const upstream = new URL(url);
    const profile = connection.profile;
    channels.set(connection.name, {
      connection,
      upstream,
      basePath: upstream.pathname,
      host: upstream.host,
      pool: new Pool(upstream.origin, {
        connections: 128,
        // No HTTP pipelining to the VMS: pipelining non-idempotent POSTs is discouraged
        // (RFC 9112 §9.3.2), and one slow batch would hold up the calls queued behind it.
        pipelining: 1,
        connect: { timeout: Math.min(connection.timeoutMs, 10_000) },
        headersTimeout: connection.timeoutMs,
        bodyTimeout: connection.timeoutMs,
      }),
      profile,
      // A VMS that speaks the portal's own dialect gets every call and answer untouched.
      translating: !speaksOwnDialect(profile, sandboxProfile(profile.dates.outbound)),
      credentials: new CredentialScrubber([connection.apiKey, connection.apiSecret]),
    });
  }
  const destroyPools = () =>
    Promise.all([...channels.values()].map((channel) => channel.pool.destroy()));

  /**
   * The connection a call is for (header X-Vms-Connection, else the default), if the user may use
   * it: an unknown name is a 404 and a connection not granted a 403, before anything is read.
   */
  function channelOf(request: FastifyRequest): Channel {
    const connection = requestedConnection(upstreams, request.headers[connectionHeader], config);
    const user = request.portalSession?.user;
    if (user && !user.connections.includes(connection.name)) {
      throw new ApiError(
        'connection_not_permitted',
        `Your account may not use the connection ${connection.label} (${connection.name}). ${
          user.connections.length === 0
            ? 'It has no connection yet'
            : `It may use ${user.connections.join(', ')}`
        }; ask an admin for access. Nothing was sent.`,
        [{ field: connectionHeader, message: 'not granted to you' }],
      );
    }
    const channel = channels.get(connection.name);
    if (!channel) {
      throw new ApiError(
        'upstream_unreachable',
        `The connection ${connection.label} is the embedded sandbox, which this portal process did not start. Nothing was sent; ask the administrator.`,
      );
    }
    return channel;
  }

  /** For the journal: the connection a call named and where it would go, read without refusing. */
  function journalConnectionOf(request: FastifyRequest): { name: string; baseUrl: string | null } {
    const chosen = request.vmsChannel;
    if (chosen) return { name: chosen.connection.name, baseUrl: chosen.upstream.href };
    const header = request.headers[connectionHeader];
    const named = connectionNamedBy(upstreams, header);
    if (!named)
      return { name: typeof header === 'string' ? header.slice(0, 40) : '', baseUrl: null };
    return { name: named.name, baseUrl: upstreams.urlOf(named) };
  }
  app.decorateRequest('vmsChannel', null);

  app.addHook('onClose', async () => {
    stopIdempotency();
    // Calls still waiting for the VMS end now, recorded as outcome unknown; the journal and the
    // database, opened before the proxy, close after it (their plugins' onClose).
    await destroyPools();
    await Promise.allSettled(settling);
  });

  await registerApiGuards(app, config, 'recruiter');

  if (lifecycle) {
    // A send that arrives while the process drains is refused before its body is read or its key
    // recorded: nothing is sent, so the browser may send it again to whichever process answers
    // next. Reads go on: they change nothing at the VMS, and a list the user is waiting for may as
    // well come from here until the drain ends.
    app.addHook('onRequest', async (request) => {
      if (lifecycle.draining && request.method === 'POST') throw drainingError();
    });
    lifecycle.proxy = {
      inFlight: () => settling.size + unkeyed.size,
      settle: async (timeoutMs) => {
        const deadline = performance.now() + timeoutMs;
        // A loop, not one wait: a read that starts during the drain is waited for as well.
        while (settling.size + unkeyed.size > 0) {
          const left = deadline - performance.now();
          if (left <= 0) break;
          const next = Promise.race([...settling, ...unkeyed]).then(
            () => false,
            () => false,
          );
          await withDeadline(next, left, () => true);
        }
        // Counted now: calls aborted below end during the drain too, but without an answer.
        const finished = finishedWhileDraining;
        const timedOut = settling.size + unkeyed.size > 0;
        // Keys first, then the calls: once a key reads unknown, an answer lost to the abort below
        // can no longer be mistaken for a batch that was never sent.
        const markedUnknown = timedOut ? await idempotency.abandonInFlight() : 0;
        if (timedOut) await destroyPools();
        return { finished, markedUnknown, timedOut };
      },
    };
  }

  // Keep the raw bytes: the VMS receives exactly what the browser sent. Only JSON is accepted,
  // which also means a cross-site page cannot post here without a CORS preflight we never grant.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: config.bodyLimitBytes },
    (_request, body, done) => done(null, body),
  );

  /**
   * One signed call to the VMS. The answer is read in full whatever happens to the browser's
   * connection meanwhile, so a batch's answer is still recorded for its retry. A VMS answer, 503
   * included, goes back as it came: never re-sent behind the user's back.
   */
  async function forward(
    channel: Channel,
    request: ProxyRequest,
    operation: VmsOperation,
    query: string,
    body: Buffer | undefined,
    waitMs: number,
    note: CallNote | undefined,
  ): Promise<ForwardResult> {
    try {
      const path = vmsPath(channel, operation, query);
      if (
        channel.translating &&
        operation === 'requisitions' &&
        pageSize(channel.profile) !== null
      ) {
        return {
          kind: 'answered',
          outcome: await forwardPages(channel, request, path, waitMs, note),
        };
      }
      const answer = await callVms(channel, request.method, path, body, waitMs, note);
      return {
        kind: 'answered',
        outcome: channel.translating
          ? translated(channel, request, operation, query, answer, note)
          : answer.outcome,
      };
    } catch (error) {
      const failure = upstreamFailure(error, {
        host: channel.host,
        timeoutMs: waitMs,
        method: request.method,
      });
      return { kind: certainlyNotSent(error) ? 'not_sent' : 'uncertain', failure };
    }
  }

  /** Where the VMS answers `operation`, under the base URL: the route's own name, or the profile's path. */
  function vmsPath(channel: Channel, operation: VmsOperation, query: string): string {
    return channel.translating ? vmsCallPath(channel.profile, operation, query) : operation + query;
  }

  /**
   * One signed call to the VMS, its answer read in full and cleaned of any echoed credential
   * before anything keeps or passes it on: the browser, a remembered answer for a retry and the
   * journal all get it without the key, the secret or the signature. `note` is the journal's,
   * for the call's first (or only) upstream request.
   */
  async function callVms(
    channel: Channel,
    method: string,
    path: string,
    body: Buffer | undefined,
    waitMs: number,
    note: CallNote | undefined,
  ): Promise<VmsAnswer> {
    // Built from nothing rather than filtered: no browser header (x-api-key, x-signature,
    // authorization, cookie, hop-by-hop, anything else) can reach the VMS. undici adds `host`.
    const { connection, profile, upstream, basePath } = channel;
    const signed = signRequest(profile.signature, {
      apiKey: connection.apiKey,
      secret: connection.apiSecret,
      ...(body ? { body } : {}),
    });
    const signature = signed.headers[profile.signature.signatureHeader] ?? '';
    const headers: IncomingHttpHeaders = { accept: 'application/json', ...signed.headers };
    if (body) headers['content-type'] = 'application/json';
    const trace = traceScope.getStore();
    if (trace) headers.traceparent = trace.traceparent;
    if (note) note.signature = signature;
    const started = performance.now();
    // The route fixes the path; the query is the checked one (forwardedQuery), with the
    // signature's timestamp where the recipe sends it there.
    const signedPath =
      Object.keys(signed.query).length === 0
        ? path
        : joinQuery(path, new URLSearchParams(signed.query));
    const answer = await channel.pool.request({
      method: method === 'POST' ? 'POST' : 'GET',
      path: basePath + signedPath,
      headers,
      body: body ?? null,
      headersTimeout: waitMs,
      bodyTimeout: waitMs,
    });
    if (note) note.firstByteAt = performance.now();
    const clean = channel.credentials.answer(
      pickHeaders(answer.headers),
      await readBody(answer.body),
      signature,
    );
    const kept = journalHeaders(answer.headers);
    if (note) {
      note.upstreamHeaders = kept;
      if (clean.redacted) note.answerRedacted = true;
    }
    return {
      outcome: { status: answer.statusCode, headers: clean.headers, body: clean.body },
      url: `${upstream.origin}${basePath}${signedPath}`,
      journalHeaders: kept,
      signature,
      latencyMs: performance.now() - started,
    };
  }

  /** Connections and fields whose unreadable record dates were logged: once each, not per list. */
  const unreadableLogged = new Set<string>();

  /**
   * Counts the records of a list whose created or updated time the profile could not read (they
   * go on as the VMS wrote them, and the page shows them so with a warning), and says so in the
   * log once per connection and field: the administrator's cue to run the connection check.
   */
  function noteUnreadableDates(channel: Channel, records: readonly unknown[]): void {
    const counts = unreadableRecordDates(records);
    const connection = channel.connection.name;
    for (const field of ['created', 'updated'] as const) {
      if (counts[field] === 0) continue;
      app.portalMetrics?.unreadableDate(connection, field, counts[field]);
      const key = `${connection}\u0000${field}`;
      if (unreadableLogged.has(key)) continue;
      unreadableLogged.add(key);
      app.log.warn(
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

  /**
   * A VMS's answer in the portal's own dialect, read with the connection's profile. The journal
   * keeps the answer as the VMS sent it. One the profile does not describe goes on as it came
   * (a warning says why), so the user sees what the VMS said; a 2xx stays a 2xx, so the
   * idempotency key is settled and the batch is never sent again.
   */
  function translated(
    channel: Channel,
    request: ProxyRequest,
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
        return listOutcome(
          channel,
          records,
          listTotalHeaders(channel.profile, outcome.body.toString('utf8'), request.log),
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
      request.log.warn(
        { reqId: request.id, operation, upstreamStatus: outcome.status, problem: text.unreadable },
        'vms answer not in its profile',
      );
      return outcome;
    }
    if (note && request.method === 'POST' && outcome.status < 300) {
      note.batchId = (JSON.parse(text) as { batchid: string }).batchid;
    }
    return {
      status: outcome.status,
      headers: { ...outcome.headers, 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(text),
    };
  }

  /** A whole list as the page gets it, its unreadable dates counted on the way. */
  function listOutcome(
    channel: Channel,
    records: readonly unknown[],
    total: Record<string, string>,
    status: number,
    headers: CallOutcome['headers'] = {},
  ): CallOutcome {
    noteUnreadableDates(channel, records);
    return {
      status,
      headers: { ...headers, ...total, 'content-type': 'application/json; charset=utf-8' },
      body: Buffer.from(JSON.stringify(records)),
    };
  }

  /**
   * GET Requisitions from a VMS that pages its list: every page, each a signed call (and a
   * journal entry) of its own, until one comes back short; the browser gets the whole list.
   */
  async function forwardPages(
    channel: Channel,
    request: ProxyRequest,
    path: string,
    waitMs: number,
    note: CallNote | undefined,
  ): Promise<CallOutcome> {
    const { profile } = channel;
    const size = pageSize(profile) ?? Number.POSITIVE_INFINITY;
    const records: Array<Record<string, unknown>> = [];
    let total: Record<string, string> = {};
    for (let index = 0; index < maxListPages; index += 1) {
      const answer = await callVms(
        channel,
        'GET',
        withPage(profile, path, index),
        undefined,
        waitMs,
        index === 0 ? note : undefined,
      );
      if (index === 0) {
        if (note) {
          note.url = answer.url;
          note.upstreamBody = answer.outcome.body;
        }
      } else {
        tap?.page(request, {
          url: answer.url,
          status: answer.outcome.status,
          headers: answer.journalHeaders,
          body: answer.outcome.body,
          signature: answer.signature,
          latencyMs: answer.latencyMs,
        });
      }
      if (answer.outcome.status < 200 || answer.outcome.status >= 300) {
        return translated(channel, request, 'requisitions', '', answer, undefined);
      }
      const page = listRecordsFromVms(profile, answer.outcome.body.toString('utf8'));
      if (!Array.isArray(page)) {
        request.log.warn(
          { reqId: request.id, operation: 'requisitions', page: index, problem: page.unreadable },
          'vms answer not in its profile',
        );
        return answer.outcome;
      }
      records.push(...page);
      if (index === 0) {
        total = listTotalHeaders(profile, answer.outcome.body.toString('utf8'), request.log);
      }
      if (page.length < size) {
        // Judged on the whole list: a time that proves the profile's day and month order wrong
        // may be on another page than the ones it casts doubt on.
        return listOutcome(
          channel,
          withoutMisreadDates(profile, records),
          total,
          answer.outcome.status,
        );
      }
    }
    return errorOutcome(
      new ApiError(
        'upstream_unreadable',
        `The VMS's requisition list did not end after ${maxListPages} pages of ${size}. Narrow the list with a filter, or check the connection's profile (list.paging).`,
      ),
    );
  }

  /** The browser's 504 while the portal goes on waiting for a keyed batch's answer. */
  function stillWaiting(channel: Channel, first: boolean): CallOutcome {
    const { lateAnswerMs, timeoutMs } = channel.connection;
    const minutes = Math.round(lateAnswerMs / 60_000);
    const wait = minutes >= 1 ? `${minutes} min` : `${lateAnswerMs} ms`;
    return errorOutcome(
      new ApiError(
        'upstream_timeout',
        `${first ? `The VMS at ${channel.host} did not answer within ${timeoutMs} ms (VMS_TIMEOUT_MS)` : 'The VMS has still not answered the first send of this batch'}. It may have received the batch, so the portal keeps waiting for its answer (up to ${wait}, VMS_LATE_ANSWER_MS). Send the same batch again, unchanged: you get the VMS's answer as soon as it comes, and the batch is never sent twice.`,
      ),
    );
  }

  /** A call without an Idempotency-Key (a read, or QA's own POST): sent as it comes, every time. */
  async function sendUnkeyed(
    channel: Channel,
    request: ProxyRequest,
    operation: VmsOperation,
    query: string,
    body: Buffer | undefined,
    note: CallNote | undefined,
  ): Promise<GateOutcome> {
    const call = forward(
      channel,
      request,
      operation,
      query,
      body,
      channel.connection.timeoutMs,
      note,
    );
    track(unkeyed, call);
    const result = await call;
    return {
      kind: 'forwarded',
      result,
      answer: result.kind === 'answered' ? result.outcome : errorOutcome(result.failure),
    };
  }

  async function handle(request: ProxyRequest, reply: FastifyReply, operation: VmsOperation) {
    const started = performance.now();
    const note = tap?.begin(request, operation);
    const channel = channelOf(request);
    request.vmsChannel = channel;
    const { connection } = channel;
    const orgs = checkOrgScope(request.query, connection);
    checkUserScope(request, orgs.clientOrgId);
    const query = forwardedQuery(request.raw.url ?? '', orgs);
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    const itemCount =
      request.method === 'POST' ? checkBatchBody(body, connection.maxBatch, operation) : null;
    const key =
      request.method === 'POST'
        ? parseIdempotencyKey(request.headers['idempotency-key'])
        : undefined;
    if (tap && note) {
      note.orgs = orgs;
      note.itemCount = itemCount;
      note.idempotencyKey = key ?? null;
      note.url = `${channel.upstream.origin}${channel.basePath}${vmsPath(channel, operation, query)}`;
      // Most calls are no replay: they skip the await (a promise and its turns each).
      if (ProxyTap.isReplay(request)) note.replayOf = await tap.replayOf(request);
    }

    const gate =
      key === undefined
        ? await sendUnkeyed(channel, request, operation, query, body, note)
        : await idempotency.pass(
            key,
            // The connection is part of what was sent: the same key on another connection is
            // another batch, refused as a conflict rather than answered with the first one's result.
            callFingerprint(request.method, `${connection.name} ${request.url}`, body),
            {
              send: () =>
                forward(channel, request, operation, query, body, connection.lateAnswerMs, note),
              timeoutMs: connection.timeoutMs,
              draining: () => lifecycle?.draining === true,
              settling: (call) => track(settling, call),
              lateAnswer: (result) => {
                callLog.info(
                  {
                    reqId: request.id,
                    operation,
                    connection: connection.name,
                    idempotencyKey: key,
                    upstreamStatus: upstreamStatusOf(result),
                    late: true,
                  },
                  'vms late answer',
                );
                tap?.lateAnswer(request, result, performance.now() - started);
              },
            },
          );
    switch (gate.kind) {
      case 'unknown':
      case 'conflict':
      case 'unavailable':
        // Answered by the error handler, as every refusal is; the journal records it as refused.
        throw gate.error;
    }
    if (note) note.outcome = gate;
    const outcome = gate.kind === 'waiting' ? stillWaiting(channel, gate.first) : gate.answer;
    const replayed = gate.kind === 'replayed';
    const upstreamStatus = gate.kind === 'forwarded' ? upstreamStatusOf(gate.result) : null;

    // One line per forwarded call.
    const line: CallLine = {
      reqId: request.id,
      operation,
      clientOrgId: orgs.clientOrgId,
      vendorOrgId: orgs.vendorOrgId,
      itemCount,
      status: outcome.status,
      upstreamStatus,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      replayed,
      outcome: gate.kind,
      connection: connection.name,
      traceId: request.traceContext?.traceId ?? null,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    };
    // Who sent it; a POST's line is also the audit line of the send.
    const user = request.portalSession?.user;
    if (user) {
      line.userId = user.id;
      line.email = user.email;
      if (request.apiToken) line.via = `token ${request.apiToken.name}`;
    }
    if (request.method === 'POST') {
      line.audit = true;
      line.event = 'send';
    }
    callLog.info(line, 'vms call');
    app.auditTrail.send(request, line, outcome.body);
    app.portalMetrics?.vmsCall(line);

    reply.code(outcome.status).headers(outcome.headers);
    if (replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply.send(outcome.body);
  }

  for (const { name, method } of vmsOperations) {
    app.route<ProxyRoute>({
      method,
      url: `/${name}`,
      // HEAD would be a sixth operation; the VMS documents none.
      exposeHeadRoute: false,
      logLevel: 'error',
      config: { pageHeaders: false },
      handler: (request, reply) =>
        traceScope.run(request.traceContext, () => handle(request, reply, name)),
    });
  }

  app.all('/*', { config: { pageHeaders: false } }, async (request) => {
    throw new ApiError(
      'not_found',
      `The portal does not forward ${request.method} ${request.url.split('?')[0]}. It forwards only ${describeOperations('/api/vms/')}.`,
    );
  });
};

/** The proxy as a plugin: it needs the database, the journal and the audit trail open first. */
export const vmsProxy = fp(forwarding, {
  name: 'vms-proxy',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['database', 'proxy-store', 'journal', 'audit', 'accounts', 'metrics'],
});
