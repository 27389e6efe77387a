import { ApiError } from '@/domain/api-error';
import { connectionHeader } from '@/domain/vms-contract';
import type { Connection, PortalConfig } from '@/server/config';

/**
 * Where each connection's calls go, once the embedded sandbox (if any connection uses it) is
 * listening: a remote connection's base URL, or the sandbox's address. Every part of the server
 * that calls or names a VMS address asks here, so the proxy, Copy as cURL and the doctor can never
 * disagree about where a connection is.
 */
export class ConnectionUpstreams {
  constructor(
    private readonly config: Pick<PortalConfig, 'connections' | 'defaultConnection'>,
    /** The embedded sandbox's address; null when no sandbox runs. */
    private readonly sandboxUrl: string | null,
  ) {}

  /** The connection's base URL, ending in `/`; null for a sandbox connection without a sandbox. */
  urlOf(connection: Connection): string | null {
    const url =
      connection.upstream.kind === 'remote' ? connection.upstream.baseUrl : this.sandboxUrl;
    if (url === null) return null;
    return url.endsWith('/') ? url : `${url}/`;
  }

  /** The connection named `name`; the default one for null (a call recorded before names). */
  named(name: string | null): Connection | undefined {
    const wanted = name ?? this.config.defaultConnection;
    return this.config.connections.find((connection) => connection.name === wanted);
  }

  get defaultConnection(): Connection {
    const connection = this.named(null);
    // loadPortalConfig refuses a default that names no connection.
    if (!connection) throw new Error(`no connection is named "${this.config.defaultConnection}"`);
    return connection;
  }
}

/**
 * The connection a request's header names: the default without one; undefined for a name the
 * portal does not have (or the header given twice).
 */
export function connectionNamedBy(
  upstreams: ConnectionUpstreams,
  header: string | string[] | undefined,
): Connection | undefined {
  if (header === undefined || header === '') return upstreams.defaultConnection;
  return Array.isArray(header) ? undefined : upstreams.named(header.trim().toLowerCase());
}

/** The connection a request names, or an error that says which ones there are. */
export function requestedConnection(
  upstreams: ConnectionUpstreams,
  header: string | string[] | undefined,
  config: Pick<PortalConfig, 'connections'>,
): Connection {
  const connection = connectionNamedBy(upstreams, header);
  if (!connection) {
    throw new ApiError(
      'unknown_connection',
      `This portal has no VMS connection named "${Array.isArray(header) ? header.join(', ') : header}" (header X-Vms-Connection). It has ${config.connections.map((entry) => entry.name).join(', ')}; name one of those, or leave the header out for the default. Nothing was sent.`,
      [{ field: connectionHeader, message: 'no such connection' }],
    );
  }
  return connection;
}
