import type { IncomingHttpHeaders } from 'node:http';
import { startVmsHop } from './vms-hop';

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
  const seen = new Set<string>();
  let refuseSends = false;
  const remember = (headers: IncomingHttpHeaders) => {
    for (const name of ['x-api-key', 'x-signature']) {
      const value = headers[name];
      if (typeof value === 'string') seen.add(value);
    }
  };
  const hop = await startVmsHop(targetUrl, {
    intercept(incoming) {
      remember(incoming.headers);
      if (incoming.method !== 'POST' || !refuseSends) return null;
      return {
        status: 401,
        headers: {
          'content-type': 'application/json',
          'retry-after': String(incoming.headers['x-signature']),
        },
        body: Buffer.from(
          JSON.stringify({ message: `Signature rejected. ${quote(incoming.headers)}` }),
        ),
      };
    },
    answer(incoming, answer, send) {
      if (!(incoming.url ?? '').split('?')[0]?.endsWith('results')) return send(answer);
      const text = answer.body
        .toString('utf8')
        .replace(/"(Cand)?ErrorMessage":"/g, (field) => `${field}${quote(incoming.headers)} `);
      send({ ...answer, body: Buffer.from(text) });
    },
  });
  return {
    url: hop.url,
    credentialsSeen: () => [...seen],
    setRefuseSends: (refuse) => {
      refuseSends = refuse;
    },
    close: () => hop.close(),
  };
}
