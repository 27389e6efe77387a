import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server standing in for the portal, as the page's own origin: while it runs,
 * `fetch('/api/…')` in a test resolves against it, as a page's relative URLs do.
 */
export async function servePageOrigin(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    realFetch(typeof input === 'string' ? new URL(input, base) : input, init);
  return {
    base,
    async close() {
      globalThis.fetch = realFetch;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** One requisition as GET Requisitions lists it. */
export function listedRequisition(titleRole: string): Record<string, string> {
  return { Req_Id: '40001', TitleRole: titleRole, Req_Updated_Date_Time: '2026-11-20T10:00:00Z' };
}
