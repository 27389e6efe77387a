import type { VmsProfile } from '@/domain/vms-profile';
import type { PortalConfig } from '@/server/config';
import { ConnectionUpstreams } from '@/server/proxy/connection-upstreams';

/**
 * One VMS connection as the doctor checks it: where it is, how calls to it are signed and
 * translated, and the orgs it acts for. Built from the portal's settings (the environment's
 * VMS_* settings are the connection named `default`), so the doctor probes exactly what the
 * proxy would call.
 */
export interface DoctorTarget {
  name: string;
  /** Ends in `/`; operations are resolved relative to it. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  clientOrgIds: number[];
  vendorOrgId: number;
  profile: VmsProfile;
  /** A production VMS: the test send is refused there unless forced. */
  production: boolean;
  timeoutMs: number;
  /** How people know the VMS: its host, or "embedded sandbox". */
  label: string;
}

/** What `--connection default` and `/api/connections/default/check` stand for: the default connection. */
export const defaultConnectionName = 'default';

/**
 * The connection named `name` (`default`: the deployment's default connection) as the doctor
 * checks it, or null when there is none. The sandbox connection is reachable only where a sandbox
 * runs for it: `sandboxUrl` is that sandbox's address (null: none runs).
 */
export function targetFor(
  config: PortalConfig,
  name: string,
  sandboxUrl: string | null,
): DoctorTarget | null {
  const upstreams = new ConnectionUpstreams(config, sandboxUrl);
  const connection = upstreams.named(name === defaultConnectionName ? null : name);
  const url = connection ? upstreams.urlOf(connection) : null;
  if (!connection || url === null) return null;
  return {
    name: connection.name,
    baseUrl: url,
    apiKey: connection.apiKey,
    apiSecret: connection.apiSecret,
    clientOrgIds: [...connection.clientOrgIds],
    vendorOrgId: connection.vendorOrgId,
    profile: connection.profile,
    production: connection.production,
    timeoutMs: connection.timeoutMs,
    label:
      connection.upstream.kind === 'remote'
        ? `${connection.label} (${new URL(connection.upstream.baseUrl).host})`
        : 'the embedded sandbox',
  };
}

/**
 * The default connection. Without VMS_BASE_URL it is the embedded sandbox, whose address is
 * known only once it listens: `sandboxUrl` then says where.
 */
export function targetFromConfig(config: PortalConfig, sandboxUrl: string | null): DoctorTarget {
  const target = targetFor(config, defaultConnectionName, sandboxUrl);
  if (target === null) {
    throw new Error('targetFromConfig: the embedded sandbox is used, but its address is not known');
  }
  return target;
}
