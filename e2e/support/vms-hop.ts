import { createServer, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The VMS's answer as the hop received it, before it is passed on. */
export interface HopAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** What a hop does with each call: answer it itself, or forward it and pass the answer on. */
export interface HopBehaviour {
  /** An answer of the hop's own (the VMS never sees the call), or null to forward it. */
  intercept?(incoming: IncomingMessage): HopAnswer | null;
  /** Passes the VMS's answer on through `send`, as it is, changed, or later. */
  answer(incoming: IncomingMessage, answer: HopAnswer, send: (answer: HopAnswer) => void): void;
}

export interface VmsHop {
  url: string;
  close(): Promise<void>;
}

/**
 * A real HTTP hop between the portal and the sandbox, for journeys where the VMS answers in a way
 * the sandbox never does (late, or echoing what it was sent). Everything else is the sandbox's.
 */
export async function startVmsHop(targetUrl: string, behaviour: HopBehaviour): Promise<VmsHop> {
  const target = new URL(targetUrl);
  const server = createServer((incoming, outgoing) => {
    const send = (answer: HopAnswer) => {
      if (outgoing.destroyed) return;
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      outgoing.writeHead(answer.status, headers);
      outgoing.end(answer.body);
    };
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const own = behaviour.intercept?.(incoming) ?? null;
      if (own) return send(own);
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: { ...incoming.headers, host: target.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () =>
            behaviour.answer(
              incoming,
              {
                status: answer.statusCode ?? 502,
                headers: answer.headers,
                body: Buffer.concat(body),
              },
              send,
            ),
          );
        },
      );
      forwarded.on('error', () => outgoing.destroy());
      forwarded.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
