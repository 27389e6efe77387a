import { connectionHeader } from '@/domain/vms-contract';

/**
 * The headers of a call to the portal server: JSON accepted (and sent, when the call has a body);
 * a VMS call (`/api/vms/…`) names the connection it goes to, `connection`, unless its own
 * `headers` name one. Never the server's default by omission, once the page knows which
 * connection it works on. Loads no zod: the list's worker asks with them as it starts
 * (first-load.ts), before the rest of its code has loaded.
 */
export function requestHeaders(
  url: string,
  connection: string | null,
  { json, headers = {} }: { json: boolean; headers?: Record<string, string> },
): Record<string, string> {
  const all: Record<string, string> = { accept: 'application/json', ...headers };
  if (json) all['content-type'] = 'application/json';
  if (connection !== null && url.startsWith('/api/vms/')) all[connectionHeader] ??= connection;
  return all;
}
