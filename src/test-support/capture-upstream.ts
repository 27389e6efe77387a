import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { request, type Dispatcher } from 'undici';
import { buildPortal, type BuildPortalOptions } from '@/server/app';
import { loadConfig, type PortalConfig } from '@/server/config';
import { testStoreEnv } from './postgres-server';

/**
 * Test support: a real HTTP server on a free port standing in for the VMS. It records exactly what
 * arrived (method, path, raw query, headers, body bytes) so tests assert on the wire, not on mocks.
 */
export interface CapturedRequest {
  method: string;
  path: string;
  /** The raw query string including `?`, or '' when there is none. */
  query: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface UpstreamAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering (a slow VMS). */
  delayMs?: number;
  /**
   * Answer once this settles: a call held at the VMS for exactly as long as a test needs, however
   * slow the machine (then after `delayMs`, if both are given).
   */
  until?: Promise<void>;
  /** Never answer: the request arrived, the answer never comes (until the connection closes). */
  hang?: boolean;
  /** Close the connection without an answer once the request has arrived. */
  reset?: boolean;
}

export type Responder = (request: CapturedRequest) => UpstreamAnswer;

export interface CaptureUpstream {
  url: string;
  requests: CapturedRequest[];
  respondWith(responder: Responder): void;
  close(): Promise<void>;
}

/** The sandbox's answer to an accepted batch (decision 000), and an empty list for GETs. */
export const defaultResponder: Responder = (captured) =>
  captured.method === 'POST'
    ? {
        status: 202,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ batchid: 'batch-1', received: 1 }),
      }
    : { status: 200, headers: { 'content-type': 'application/json' }, body: '[]' };

export async function startCaptureUpstream(): Promise<CaptureUpstream> {
  const requests: CapturedRequest[] = [];
  let responder = defaultResponder;
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const captured: CapturedRequest = {
        method: req.method ?? '',
        path: queryAt >= 0 ? url.slice(0, queryAt) : url,
        query: queryAt >= 0 ? url.slice(queryAt) : '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(captured);
      const answer = responder(captured);
      if (answer.hang) return;
      if (answer.reset) {
        req.socket.destroy();
        return;
      }
      const send = () => {
        res.writeHead(answer.status ?? 200, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      const answerNow = () => {
        if (answer.delayMs) {
          const timer = setTimeout(() => {
            timers.delete(timer);
            if (!res.destroyed) send();
          }, answer.delayMs);
          timers.add(timer);
        } else if (!res.destroyed) {
          send();
        }
      };
      if (answer.until) void answer.until.then(answerNow);
      else answerNow();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    respondWith(next) {
      responder = next;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The requisition import through the portal, for the demo client and vendor orgs. */
export const requisitionImportPath =
  '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001';

export const testCredentials = {
  apiKey: 'test-key-5f0c2a7d91b4',
  apiSecret: 'test-secret-e83b6d104f2a',
};

/** A portal configuration against `upstreamUrl`, through loadConfig like the real server. */
export function testConfig(upstreamUrl: string, env: NodeJS.ProcessEnv = {}): PortalConfig {
  return loadConfig(
    testStoreEnv({
      VMS_BASE_URL: upstreamUrl,
      VMS_API_KEY: testCredentials.apiKey,
      VMS_API_SECRET: testCredentials.apiSecret,
      VMS_CLIENT_ORGS: '1001,1002',
      VMS_VENDOR_ORG_ID: '9001',
      LOG_LEVEL: 'info',
      PORTAL_DB: ':memory:',
      // These tests count what reaches the upstream and the journal, call by call, for the
      // proxy alone; the watcher's own results calls (decision 050) are tested in watch/.
      WATCH: 'off',
      ...env,
    }),
  );
}

export interface SeenResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface TestPortal {
  url: string;
  /** The portal itself, for what a test drives by hand (the suites' scheduler's looks). */
  app: FastifyInstance;
  /** Every log line the portal wrote, parsed. */
  logLines(): Record<string, unknown>[];
  /** Every log line, raw, for grepping. */
  rawLog(): string;
  /** Every response this harness received, for grepping. */
  responses: SeenResponse[];
  call(
    method: Dispatcher.HttpMethod,
    path: string,
    init?: {
      headers?: Record<string, string> | undefined;
      body?: string | Buffer | undefined;
      signal?: AbortSignal | undefined;
    },
  ): Promise<SeenResponse & { json(): unknown }>;
  close(): Promise<void>;
}

/** Starts the real portal on a free loopback port, capturing its log output. */
export async function startTestPortal(
  config: PortalConfig,
  options: Omit<BuildPortalOptions, 'logStream'> = {},
): Promise<TestPortal> {
  let log = '';
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString('utf8');
      done();
    },
  });
  const app = buildPortal(config, { ...options, logStream });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const responses: SeenResponse[] = [];

  return {
    url,
    app,
    logLines: () =>
      log
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line): Record<string, unknown> => JSON.parse(line)),
    rawLog: () => log,
    responses,
    async call(method, path, init = {}) {
      const res = await request(`${url}${path}`, {
        method,
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.signal ? { signal: init.signal } : {}),
      });
      const seen: SeenResponse = {
        status: res.statusCode,
        headers: res.headers,
        body: Buffer.from(await res.body.arrayBuffer()),
      };
      responses.push(seen);
      return { ...seen, json: () => JSON.parse(seen.body.toString('utf8')) as unknown };
    },
    close: () => app.close(),
  };
}
