/** Reading the VMS's answer: what the browser gets of its headers and its body. */
import type { IncomingHttpHeaders } from 'node:http';

/** Upstream response headers the browser gets; anything else (set-cookie, server…) stays behind. */
export const forwardedResponseHeaders = ['content-type', 'retry-after'] as const;

/**
 * The headers named `names` (lower-case, as undici gives them) of the upstream answer, those the
 * browser gets unless told otherwise; a header given more than once is left out.
 */
export function pickHeaders(
  headers: IncomingHttpHeaders,
  names: readonly string[] = forwardedResponseHeaders,
): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

export async function readBody(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.length;
  }
  return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, length);
}
