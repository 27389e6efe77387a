import { z } from 'zod';
import { dateFormats } from './catalog-types';

/**
 * The body of the portal server's `GET /api/config`: the non-secret settings the browser needs.
 * Lives in the domain (no Node APIs) so the browser parses the response with the same schema the
 * server builds it with. The API key and secret are deliberately absent (decisions.md,
 * "Authentication and who may act for whom").
 */
export const portalConfigSchema = z.object({
  /** The client orgs this deployment may act for (`VMS_CLIENT_ORG_IDS`). */
  clientOrgIds: z.array(z.number().int().positive()).min(1),
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
});

export type PortalConfigResponse = z.infer<typeof portalConfigSchema>;
