import { z } from 'zod';
import { dateFormats } from './catalog-types';

/**
 * The body of the portal server's `GET /api/config`: the non-secret settings the browser needs.
 * Lives in the domain (no Node APIs) so the browser parses the response with the same schema the
 * server builds it with. The API key and secret are deliberately absent (decision 001).
 */
export const portalConfigSchema = z.object({
  /** The client orgs this deployment may act for (`VMS_CLIENT_ORGS`). */
  clientOrgIds: z.array(z.number().int().positive()).min(1),
  /** Their names by id, where known (`VMS_CLIENT_ORGS` "1001:Northwind Health", or the sandbox's). */
  clientOrgNames: z.record(z.string(), z.string()),
  /** The one vendor org this deployment acts as (`VMS_VENDOR_ORG_ID`). */
  vendorOrgId: z.number().int().positive(),
  /** Outbound DATE format (`VMS_DATE_FORMAT`). */
  dateFormat: z.enum(dateFormats),
  /** Most items the proxy forwards in one array (`VMS_MAX_BATCH`). */
  maxBatch: z.number().int().positive(),
  /** How long the portal server waits for the VMS (`VMS_TIMEOUT_MS`): the browser waits longer. */
  timeoutMs: z.number().int().positive(),
  /** Which VMS the portal talks to: the embedded sandbox, or a remote host shown by name. */
  upstream: z.object({
    kind: z.enum(['sandbox', 'remote']),
    label: z.string().min(1),
  }),
  /**
   * The VMS connections of this deployment, for the browser to name and (later) switch between:
   * names, labels and kinds only. Keys, secrets and addresses stay on the server.
   */
  connections: z
    .array(
      z.object({
        name: z.string().min(1),
        label: z.string().min(1),
        /** Calls reach real people. */
        production: z.boolean(),
        kind: z.enum(['sandbox', 'remote']),
      }),
    )
    .min(1),
  /** The connection the page starts with, and the one every call goes to for now. */
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
