import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { acceptedBatchId } from '@/domain/accepted-batch';
import { ApiError } from '@/domain/api-error';
import { connectionHeader, describeOperations } from '@/domain/vms-contract';
import type { PortalConfig } from '@/server/config';
import { registerApiGuards } from '@/server/http/api-guards';
import { traceScope } from '@/server/http/trace-context';
import { drainingError, type PortalLifecycle } from '@/server/ops/drain';
import { checkCall, type CheckedCall } from './call-check';
import { callLineOf } from './call-line';
import { CallTracker } from './call-tracker';
import type { ConnectionUpstreams } from './connection-upstreams';
import { forward, vmsPath, type ForwardSteps } from './forward-call';
import { startIdempotencyGate } from './idempotency';
import { CallFingerprint, upstreamStatusOf, type CallOutcome } from './idempotency-key';
import { sendKeyed, sendUnkeyed, stillWaiting } from './keyed-send';
import { channelFor, closeChannels, namedConnection, openChannels } from './proxy-channel';
import { ProxyTap } from './proxy-tap';
import { AnswerTranslator } from './translate-answer';
import { vmsOperations, type Query, type VmsOperation } from './vms-operations';

export interface VmsProxyOptions {
  config: PortalConfig;
  /** Where each connection's operations are sent. */
  upstreams: ConnectionUpstreams;
  /** Told when the database fails a write (a reason) and when it works again (null). */
  onDatabaseHealth?: (problem: string | null) => void;
  /** The process's shutdown state: draining refuses new sends; the drain settles the calls. */
  lifecycle?: PortalLifecycle;
}

interface ProxyRoute {
  Querystring: Query;
}
type ProxyRequest = FastifyRequest<ProxyRoute>;

/** Tells the browser and QA that an answer is a remembered one, not a new send. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The signing proxy under /api/vms (decision 001). Forwards exactly the five operations, each
 * call in steps, each a function of its own: resolve the connection (proxy-channel.ts), check
 * the orgs, the user and the batch (call-check.ts), pass the key's gate (keyed-send.ts), sign and
 * send (vms-call.ts, forward-call.ts), translate another dialect's answer (translate-answer.ts),
 * and record it (call-line.ts: the log line, the audit event, the metrics; the journal's entry
 * by its own hook, proxy-tap.ts). The answer goes back with the upstream's status and
 * body unchanged but for an echoed credential, which is replaced (credential-scrub.ts).
 * Everything else under /api/vms is a 404 that never leaves the machine.
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
  const calls = new CallTracker(() => lifecycle?.draining === true);
  // Every answer under this prefix is recorded by one hook (decision 025), refusals included,
  // except (sign-in on) those to calls made without a session.
  const { journal } = app;
  const tap = journal
    ? new ProxyTap(
        journal,
        `${app.prefix}/`,
        (request) =>
          namedConnection(request.vmsChannel, upstreams, request.headers[connectionHeader]),
        config.auth.required,
      )
    : null;
  app.decorateRequest('journalNote', null);
  if (tap) app.addHook('onSend', tap.onSend);
  const steps: ForwardSteps = {
    translator: new AnswerTranslator(app.log, app.portalMetrics),
    tap,
  };

  const channels = openChannels(config, upstreams);
  app.decorateRequest('vmsChannel', null);
  // Whoever watches accepted batches (the watch concern, decision 050); none in a portal built
  // without it.
  const watching = app.hasDecorator('acceptedBatches') ? app.acceptedBatches : null;
  /** Tells the watchers of a batch the VMS accepted: its first send's answer, or its late one. */
  const tellAccepted = (
    request: ProxyRequest,
    operation: VmsOperation,
    checked: CheckedCall,
    outcome: CallOutcome,
  ) => {
    if (!watching || checked.itemCount === null) return;
    if (operation !== 'requisitionimport' && operation !== 'candidates') return;
    const batchId = acceptedBatchId(outcome.status, outcome.body);
    if (batchId === null) return;
    const user = request.portalSession?.user;
    watching.accepted({
      connection: request.vmsChannel?.connection.name ?? config.defaultConnection,
      batchId,
      operation,
      orgs: checked.orgs,
      sentBy: user ? { userId: user.id, email: user.email } : null,
      itemCount: checked.itemCount,
      at: Date.now(),
    });
  };

  app.addHook('onClose', async () => {
    stopIdempotency();
    // Calls still waiting for the VMS end now, recorded as outcome unknown; the journal and the
    // database, opened before the proxy, close after it (their plugins' onClose).
    await closeChannels(channels);
    await Promise.allSettled(calls.settling);
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
      inFlight: () => calls.inFlight,
      settle: (timeoutMs) => calls.settle(timeoutMs, idempotency, () => closeChannels(channels)),
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

  /** One proxied call, step by step. */
  async function handle(request: ProxyRequest, reply: FastifyReply, operation: VmsOperation) {
    const started = performance.now();
    const note = tap?.begin(request, operation);
    // A journal far behind holds the call here, before anything is sent or any key recorded: held,
    // a call is late; let through, it would go unrecorded. Almost always there is room, and no
    // await (an await costs turns of the event loop).
    const held = tap?.room();
    if (held) await held;
    const channel = channelFor(
      channels,
      upstreams,
      config,
      request.headers[connectionHeader],
      request.portalSession?.user,
    );
    request.vmsChannel = channel;
    const { connection } = channel;
    const checked = checkCall(request, connection, operation);
    const { query, body, key } = checked;
    if (tap && note) {
      note.orgs = checked.orgs;
      note.itemCount = checked.itemCount;
      note.idempotencyKey = key ?? null;
      note.url = `${channel.upstream.origin}${channel.basePath}${vmsPath(channel, operation, query)}`;
      // Most calls are no replay: they skip the await (a promise and its turns each).
      if (ProxyTap.isReplay(request)) note.replayOf = await tap.replayOf(request);
    }

    const send = (waitMs: number) =>
      forward(steps, channel, request, operation, query, body, waitMs, note);
    const fingerprint =
      key === undefined
        ? null
        : new CallFingerprint(request.method, `${connection.name} ${request.url}`, body);
    // The journal keeps the body by the SHA-256 the fingerprint took of it: hashed once.
    if (note && fingerprint) note.requestSha256 = fingerprint.bodySha256;
    const gate =
      key === undefined || fingerprint === null
        ? await sendUnkeyed({ channel, send, calls })
        : await sendKeyed({
            channel,
            send,
            calls,
            gate: idempotency,
            key,
            fingerprint,
            draining: () => lifecycle?.draining === true,
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
              if (result.kind === 'answered') {
                tellAccepted(request, operation, checked, result.outcome);
              }
            },
          });
    switch (gate.kind) {
      case 'unknown':
      case 'conflict':
      case 'unavailable':
        // Answered by the error handler, as every refusal is; the journal records it as refused.
        throw gate.error;
    }
    if (note) note.outcome = gate;
    // A replay tells nothing: the send it repeats did, once.
    if (gate.kind === 'forwarded') tellAccepted(request, operation, checked, gate.answer);
    const outcome = gate.kind === 'waiting' ? stillWaiting(channel, gate.first) : gate.answer;

    // One line per forwarded call: the log's, the audit trail's and the metrics'.
    const line = callLineOf(request, {
      operation,
      checked,
      connection: connection.name,
      gate,
      status: outcome.status,
      durationMs: performance.now() - started,
    });
    callLog.info(line, 'vms call');
    app.auditTrail.send(request, line, outcome.body);
    app.portalMetrics?.vmsCall(line);

    reply.code(outcome.status).headers(outcome.headers);
    if (gate.kind === 'replayed') reply.header(REPLAYED_HEADER, 'true');
    return reply.send(outcome.body);
  }

  for (const { name, method } of vmsOperations) {
    app.route<ProxyRoute>({
      method,
      url: `/${name}`,
      // HEAD would be a sixth operation; the VMS documents none.
      exposeHeadRoute: false,
      // No route log level of its own: Fastify then gives each request's logger that level, and
      // pino rebuilds every log method of each such child (1–2 % of a call's CPU), while the
      // routes' own lines (a VMS answer not in its profile) were silenced below error. Fastify's
      // per-request lines are off for the whole app (disableRequestLogging).
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
