import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP hop between the portal and the sandbox that answers like a careless VMS: it quotes
 * the credentials it was sent. With `refuseSends` on, every POST is refused with 401 and a body
 * naming the key and signature (the sandbox never sees it); otherwise calls go through and every
 * results row's message is prefixed with the same quote.
 */
export interface EchoingVms {
  url: string;
  /** Every key and signature this hop received, for searching what the browser got. */
  credentialsSeen(): string[];
  setRefuseSends(refuse: boolean): void;
  close(): Promise<void>;
}

function quote(headers: IncomingHttpHeaders): string {
  return `Checked with key ${String(headers['x-api-key'])} and signature ${String(headers['x-signature'])}.`;
}

export async function startEchoingVms(targetUrl: string): Promise<EchoingVms> {
  const target = new URL(targetUrl);
  const seen = new Set<string>();
  let refuseSends = false;
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      for (const name of ['x-api-key', 'x-signature']) {
        const value = incoming.headers[name];
        if (typeof value === 'string') seen.add(value);
      }
      const echo = quote(incoming.headers);
      if (incoming.method === 'POST' && refuseSends) {
        outgoing.writeHead(401, {
          'content-type': 'application/json',
          'retry-after': String(incoming.headers['x-signature']),
        });
        outgoing.end(JSON.stringify({ message: `Signature rejected. ${echo}` }));
        return;
      }
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
          answer.on('end', () => {
            let text = Buffer.concat(body).toString('utf8');
            if ((incoming.url ?? '').split('?')[0]?.endsWith('results')) {
              text = text.replace(/"(Cand)?ErrorMessage":"/g, (field) => `${field}${echo} `);
            }
            const headers = { ...answer.headers };
            delete headers['content-length'];
            outgoing.writeHead(answer.statusCode ?? 502, headers);
            outgoing.end(text);
          });
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
    credentialsSeen: () => [...seen],
    setRefuseSends: (refuse) => {
      refuseSends = refuse;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
