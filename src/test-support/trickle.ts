import { connect } from 'node:net';

/**
 * Test support: a client that sends a request's head, then its body one byte every 200 ms (never
 * idle, never finished), the way a slow-loris attack holds connections. Resolves with how long
 * the server kept the connection and everything it answered.
 */
export async function trickleRequest(
  baseUrl: string,
  head: readonly string[],
): Promise<{ elapsedMs: number; answer: string }> {
  const { port, hostname } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  // A byte written as the server closes the connection makes it reset it (ECONNRESET, EPIPE): the
  // end this client is here to provoke. What it measures is the 'close' that follows either way.
  socket.on('error', () => undefined);
  const started = Date.now();
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => resolve(Date.now() - started)),
  );
  socket.write([...head, 'Content-Length: 100', '', '['].join('\r\n'));
  const trickle = setInterval(() => {
    if (!socket.destroyed) socket.write(' ');
  }, 200);
  const elapsedMs = await closed;
  clearInterval(trickle);
  return { elapsedMs, answer: Buffer.concat(received).toString() };
}
