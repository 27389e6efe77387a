import type { VmsProfile } from '../../domain/vms-profile';
import type { PortalConfig } from '../config';

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

/** The name of the connection the environment's VMS_* settings describe. */
export const defaultConnectionName = 'default';

/**
 * The environment's connection. Without VMS_BASE_URL it is the embedded sandbox, whose address is
 * known only once it listens: `sandboxUrl` then says where.
 */
export function targetFromConfig(config: PortalConfig, sandboxUrl: string | null): DoctorTarget {
  const url = config.vmsBaseUrl ?? sandboxUrl;
  if (url === null) {
    throw new Error('targetFromConfig: the embedded sandbox is used, but its address is not known');
  }
  return {
    name: defaultConnectionName,
    baseUrl: url.endsWith('/') ? url : `${url}/`,
    apiKey: config.apiKey,
    apiSecret: config.apiSecret,
    clientOrgIds: [...config.clientOrgIds],
    vendorOrgId: config.vendorOrgId,
    profile: config.profile,
    production: false,
    timeoutMs: config.timeoutMs,
    label: config.vmsBaseUrl === null ? 'embedded sandbox' : new URL(config.vmsBaseUrl).host,
  };
}
