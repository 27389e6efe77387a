import { z } from 'zod';
import { datePatternSchema } from './date-patterns';
import { fullReadEverySchema } from './list-refresh';

export { callSettingsOf, settingsForConnection, settledConnection } from './connection-choice';

/**
 * What calls on a VMS connection are made with: the orgs they act for and as, the date format,
 * the limits. Each connection has its own; the deployment's are its default connection's.
 */
const callSettingsSchema = z.object({
  /** The client orgs this deployment may act for (`VMS_CLIENT_ORGS`). */
  clientOrgIds: z.array(z.number().int().positive()).min(1),
  /** Their names by id, where known (`VMS_CLIENT_ORGS` "1001:Northwind Health", or the sandbox's). */
  clientOrgNames: z.record(z.string(), z.string()),
  /** The one vendor org this deployment acts as (`VMS_VENDOR_ORG_ID`). */
  vendorOrgId: z.number().int().positive(),
  /** Outbound DATE format (`VMS_DATE_FORMAT`). */
  dateFormat: datePatternSchema('date', 'dateFormat'),
  /** Most items the proxy forwards in one array (`VMS_MAX_BATCH`). */
  maxBatch: z.number().int().positive(),
  /** How long the portal server waits for the VMS (`VMS_TIMEOUT_MS`): the browser waits longer. */
  timeoutMs: z.number().int().positive(),
  /** How often the requisition list is read whole (the profile's `list.fullReadEvery`). */
  fullReadEvery: fullReadEverySchema.optional(),
});
export type CallSettings = z.infer<typeof callSettingsSchema>;

/** Which VMS a connection talks to: the embedded sandbox, or a remote host shown by name. */
const upstreamSchema = z.object({
  kind: z.enum(['sandbox', 'remote']),
  label: z.string().min(1),
});

/** What the browser needs of one VMS connection: how it is named, and the settings it sends with. */
export const connectionSettingsSchema = z.object({
  name: z.string().min(1),
  label: z.string().min(1),
  /** Calls reach real people. */
  production: z.boolean(),
  kind: z.enum(['sandbox', 'remote']),
  ...callSettingsSchema.shape,
  upstream: upstreamSchema,
});
export type ConnectionSettings = z.infer<typeof connectionSettingsSchema>;

/**
 * The body of the portal server's `GET /api/config`: the non-secret settings the browser needs.
 * Lives in the domain (no Node APIs) so the browser parses the response with the same schema the
 * server builds it with. The API key and secret are deliberately absent (decision 001).
 */
export const portalConfigSchema = z.object({
  ...callSettingsSchema.shape,
  /** Which VMS the portal talks to by default. */
  upstream: upstreamSchema,
  /**
   * The VMS connections of this deployment, for the browser to name and switch between, with the
   * settings each sends with. Keys, secrets and addresses stay on the server.
   */
  connections: z.array(connectionSettingsSchema).min(1),
  /** The connection a page starts with, and the one a call naming none goes to. */
  defaultConnection: z.string().min(1),
  /** Sign-in is on: the page asks who you are before anything else. */
  authRequired: z.boolean().optional(),
});

export type PortalConfigResponse = z.infer<typeof portalConfigSchema>;

/** "1001 · Northwind Health", or "1001" when its name is not known. */
export function clientOrgLabel(
  config: Pick<PortalConfigResponse, 'clientOrgNames'>,
  orgId: number,
): string {
  const name = config.clientOrgNames[String(orgId)];
  return name ? `${orgId} · ${name}` : String(orgId);
}

/** A connection as people choose it: its label, and "(production)" when calls reach real people. */
export function connectionLabel(
  connection: Pick<ConnectionSettings, 'label' | 'production'>,
): string {
  return connection.production ? `${connection.label} (production)` : connection.label;
}

/** The connections a signed-in user may use (their grants); all of them with sign-in off. */
export function usableConnections(
  config: Pick<PortalConfigResponse, 'connections'>,
  granted: readonly string[] | null,
): ConnectionSettings[] {
  return config.connections.filter(
    (connection) => granted === null || granted.includes(connection.name),
  );
}

/**
 * Every client org any connection acts for, in order of first appearance: what an admin may
 * grant, on the server and on the Users page alike.
 */
export function deploymentClientOrgIds(
  connections: readonly { clientOrgIds: readonly number[] }[],
): number[] {
  return [...new Set(connections.flatMap((connection) => connection.clientOrgIds))];
}
