import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { FullReadEvery } from '@/domain/list-refresh';
import {
  callSettingsOf,
  portalConfigSchema,
  type PortalConfigResponse,
} from '@/domain/portal-config';
import type { VmsProfile } from '@/domain/vms-profile';
import { connectionUpstreamLabel, upstreamLabel, type PortalConfig } from '@/server/config';
import { responseSchema, withRouteSchemas } from '@/server/http/route-schemas';

/**
 * What the browser is told about this deployment and its connections: orgs, date formats, limits
 * and each connection's name, label and kind. Picked field by field, so a key, a secret or an
 * address can never come along. The same body is inlined in every page (spa/route-preloads.ts).
 */
export function browserConfig(config: PortalConfig): PortalConfigResponse {
  return portalConfigSchema.parse({
    authRequired: config.auth.required,
    ...callSettingsOf(config),
    ...listSettingsOf(config.profile),
    upstream: upstreamLabel(config),
    connections: config.connections.map((connection) => ({
      name: connection.name,
      label: connection.label,
      production: connection.production,
      kind: connection.upstream.kind,
      ...callSettingsOf(connection),
      ...listSettingsOf(connection.profile),
      upstream: connectionUpstreamLabel(connection),
    })),
    defaultConnection: config.defaultConnection,
  });
}

/** What the browser's list needs of a profile: how often it is read whole, when the profile says. */
function listSettingsOf(profile: VmsProfile): { fullReadEvery?: FullReadEvery } {
  return profile.list.fullReadEvery ? { fullReadEvery: profile.list.fullReadEvery } : {};
}

export interface ConfigRoutesOptions {
  body: PortalConfigResponse;
}

/** `GET /api/config`: the deployment as the browser sees it (browserConfig), for anyone. */
const routes: FastifyPluginAsync<ConfigRoutesOptions> = async (app, { body }) => {
  withRouteSchemas(app).get(
    '/config',
    { schema: { response: { 200: responseSchema(portalConfigSchema) } } },
    async () => body,
  );
};

export const configRoutes = fp(routes, {
  name: 'config-routes',
  fastify: '5.x',
  encapsulate: true,
});
