import type { FastifyInstance } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { orgIdParam, parseQuery } from './query';
import type { ReferenceData } from './reference';

/**
 * GET /_sandbox/reference?Client_Org_Id=…: the seeded reference data of one client, so a person
 * (or a test) can fill a valid form. Sandbox only, read-only and open: it holds no secrets, and
 * the portal must not depend on it (the real service has no such operation).
 */
export function registerReferenceRoutes(app: FastifyInstance, reference: ReferenceData): void {
  app.get('/_sandbox/reference', async (request) => {
    const clientOrgId = orgIdParam(parseQuery(request.query), 'Client_Org_Id', 1001);
    const client = reference.clients.get(clientOrgId);
    if (!client) {
      throw new ApiError(
        'not_found',
        `The sandbox has no client org ${clientOrgId}; its client orgs are ` +
          `${[...reference.clients.keys()].join(' and ')}.`,
      );
    }
    return client;
  });
}
