import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP hop between the portal and the sandbox whose answers to POSTs arrive late: the VMS
 * receives and processes the batch at once, but its answer reaches the portal only after
 * `answerDelayMs`. This is how a lost answer looks from the portal's side.
 */
export interface SlowVms {
  url: string;
  /** POSTs that reached the VMS through this hop. */
  posts(): number;
  setAnswerDelay(ms: number): void;
  close(): Promise<void>;
}

export async function startSlowVms(targetUrl: string, answerDelayMs: number): Promise<SlowVms> {
  const target = new URL(targetUrl);
  let posts = 0;
  let delay = answerDelayMs;
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const isPost = incoming.method === 'POST';
      if (isPost) posts += 1;
      const headers: IncomingHttpHeaders = { ...incoming.headers, host: target.host };
      const forwarded = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const reply = () => {
              if (outgoing.destroyed) return;
              outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
              outgoing.end(Buffer.concat(body));
            };
            if (!isPost || delay === 0) return reply();
            const timer = setTimeout(() => {
              timers.delete(timer);
              reply();
            }, delay);
            timers.add(timer);
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
    posts: () => posts,
    setAnswerDelay: (ms) => {
      delay = ms;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
