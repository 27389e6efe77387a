import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../../domain/api-error';
import { connectionCheckRequestSchema, type DoctorReport } from '../../domain/connection-check';
import { registerApiGuards } from '../http/api-guards';
import { acceptJsonOnly, parseBody } from '../http/json-body';
import type { PortalConfig } from '../config';
import { runDoctor, SendTestRefused } from '../doctor/run-doctor';
import { targetFor, type DoctorTarget } from '../doctor/target';

export interface ConnectionRoutesOptions {
  config: PortalConfig;
  /** The embedded sandbox's address, for a sandbox connection; null when none runs. */
  sandboxUrl: string | null;
  /**
   * The connection of a name, or null when there is none. Default: the deployment's
   * connections (`default` standing for the default one).
   */
  connection?: (name: string) => DoctorTarget | null;
}

/**
 * `POST /api/connections/:name/check`: the connection doctor for admins (anyone on a portal
 * without sign-in, which only its own machine can reach). It calls the VMS with the deployment's
 * credentials, so it is an admin's, like accounts; the answer is the report, which never holds
 * the key, the secret or a signature.
 */
const routes: FastifyPluginAsync<ConnectionRoutesOptions> = async (
  app,
  { config, sandboxUrl, connection },
) => {
  const connectionNamed = connection ?? ((name: string) => targetFor(config, name, sandboxUrl));
  acceptJsonOnly(app);
  await registerApiGuards(app, config, 'admin');

  app.post<{ Params: { name: string } }>('/:name/check', async (request): Promise<DoctorReport> => {
    const { name } = request.params;
    const target = connectionNamed(name);
    if (target === null) {
      throw new ApiError(
        'not_found',
        `There is no connection named "${name}"; check the name in the address.`,
      );
    }
    const body = parseBody(connectionCheckRequestSchema, request.body ?? undefined);
    try {
      return await runDoctor(target, body);
    } catch (error) {
      if (error instanceof SendTestRefused) {
        throw new ApiError('production_send_refused', error.message);
      }
      throw error;
    }
  });
};

export const connectionRoutes = fp(routes, {
  name: 'connection-routes',
  fastify: '5.x',
  encapsulate: true,
});
