import { Pool } from 'undici';
import { ApiError } from '@/domain/api-error';
import type { SessionUser } from '@/domain/auth';
import { connectionHeader } from '@/domain/vms-contract';
import { sandboxProfile, speaksOwnDialect, type VmsProfile } from '@/domain/vms-profile';
import type { Connection, PortalConfig } from '@/server/config';
import { CredentialScrubber } from '@/server/redaction/credential-scrub';
import {
  connectionNamedBy,
  requestedConnection,
  type ConnectionUpstreams,
} from './connection-upstreams';

/**
 * The proxy's first step: the connection a call is for. Everything the proxy keeps for one
 * connection is its Channel: where its VMS is, the pool of sockets to it, how its calls are
 * signed and translated, and the credentials its answers are cleaned of.
 */
export interface Channel {
  connection: Connection;
  upstream: URL;
  /** The base URL's path, ending in `/`: operation paths are appended to it. */
  basePath: string;
  host: string;
  pool: Pool;
  profile: VmsProfile;
  /** The VMS speaks another dialect than the portal's: calls and answers are translated. */
  translating: boolean;
  credentials: CredentialScrubber;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The connection a proxied call was found to be for; null before (or outside the proxy). */
    vmsChannel: Channel | null;
  }
}

/** A connection's channel to the VMS at `url` (its base URL). */
export function openChannel(connection: Connection, url: string): Channel {
  const upstream = new URL(url);
  const profile = connection.profile;
  return {
    connection,
    upstream,
    basePath: upstream.pathname,
    host: upstream.host,
    // undici straight, not @fastify/reply-from: the proxy buffers the answer anyway (it is
    // remembered for retries), so reply-from's streaming, header rewriting and URL cache were
    // pure overhead — about a fifth of the proxy's CPU per call in bench/proxy.ts.
    pool: new Pool(upstream.origin, {
      connections: 128,
      // No HTTP pipelining to the VMS: pipelining non-idempotent POSTs is discouraged
      // (RFC 9112 §9.3.2), and one slow batch would hold up the calls queued behind it.
      pipelining: 1,
      connect: { timeout: Math.min(connection.timeoutMs, 10_000) },
      headersTimeout: connection.timeoutMs,
      bodyTimeout: connection.timeoutMs,
    }),
    profile,
    // A VMS that speaks the portal's own dialect gets every call and answer untouched.
    translating: !speaksOwnDialect(profile, sandboxProfile(profile.dates.outbound)),
    credentials: new CredentialScrubber([connection.apiKey, connection.apiSecret]),
  };
}

/** Every connection's channel, by name; a sandbox connection without a sandbox has none. */
export function openChannels(
  config: Pick<PortalConfig, 'connections'>,
  upstreams: ConnectionUpstreams,
): Map<string, Channel> {
  const channels = new Map<string, Channel>();
  for (const connection of config.connections) {
    const url = upstreams.urlOf(connection);
    if (url !== null) channels.set(connection.name, openChannel(connection, url));
  }
  return channels;
}

/**
 * The channel of the connection a call names (header X-Vms-Connection, else the default), if
 * `user` may use it: an unknown name is a 404 and a connection not granted a 403, before anything
 * is read; a sandbox connection this process did not start, a 502.
 */
export function channelFor(
  channels: ReadonlyMap<string, Channel>,
  upstreams: ConnectionUpstreams,
  config: Pick<PortalConfig, 'connections'>,
  header: string | string[] | undefined,
  user: Pick<SessionUser, 'connections'> | undefined,
): Channel {
  const connection = requestedConnection(upstreams, header, config);
  if (user && !user.connections.includes(connection.name)) {
    throw new ApiError(
      'connection_not_permitted',
      `Your account may not use the connection ${connection.label} (${connection.name}). ${
        user.connections.length === 0
          ? 'It has no connection yet'
          : `It may use ${user.connections.join(', ')}`
      }; ask an admin for access. Nothing was sent.`,
      [{ field: connectionHeader, message: 'not granted to you' }],
    );
  }
  const channel = channels.get(connection.name);
  if (!channel) {
    throw new ApiError(
      'upstream_unreachable',
      `The connection ${connection.label} is the embedded sandbox, which this portal process did not start. Nothing was sent; ask the administrator.`,
    );
  }
  return channel;
}

/**
 * For the journal: the connection a call named and where it would go, read without refusing
 * (a call refused before its channel was found is recorded too).
 */
export function namedConnection(
  chosen: Channel | null,
  upstreams: ConnectionUpstreams,
  header: string | string[] | undefined,
): { name: string; baseUrl: string | null } {
  if (chosen) return { name: chosen.connection.name, baseUrl: chosen.upstream.href };
  const named = connectionNamedBy(upstreams, header);
  if (!named) return { name: typeof header === 'string' ? header.slice(0, 40) : '', baseUrl: null };
  return { name: named.name, baseUrl: upstreams.urlOf(named) };
}

/** Closes every channel's sockets: calls still at the VMS end at once. */
export async function closeChannels(channels: ReadonlyMap<string, Channel>): Promise<void> {
  await Promise.all([...channels.values()].map((channel) => channel.pool.destroy()));
}
