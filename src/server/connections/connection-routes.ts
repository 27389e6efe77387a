import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import { connectionCheckRequestSchema, doctorReportSchema } from '@/domain/connection-check';
import { profileDraftRequestSchema, profileDraftSchema } from '@/domain/profile-draft';
import type { PortalConfig } from '@/server/config';
import { draftProfile } from '@/server/doctor/draft-profile/draft';
import { runDoctor, SendTestRefused } from '@/server/doctor/run-doctor';
import { targetFor, type DoctorTarget } from '@/server/doctor/target';
import { registerApiGuards } from '@/server/http/api-guards';
import { acceptJsonOnly } from '@/server/http/json-body';
import {
  bodySchema,
  partSchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';

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
 *
 * `POST /api/connections/:name/draft-profile`: a profile drafted from the VMS's own answers to
 * safe GETs, for the same admins and for the same reason; with `"sendTest": true`, also from one
 * test requisition and a test candidate to it, refused (409) on a production connection, which
 * the page cannot force. The draft carries no secret either (draft-profile/draft.ts scrubs it).
 */
const routes: FastifyPluginAsync<ConnectionRoutesOptions> = async (
  app,
  { config, sandboxUrl, connection },
) => {
  const connectionNamed = connection ?? ((name: string) => targetFor(config, name, sandboxUrl));
  acceptJsonOnly(app);
  await registerApiGuards(app, config, 'admin');

  const api = withRouteSchemas(app);

  /** The connection the address names, before the body is read: a name that is none is a 404. */
  const connectionParams = partSchema(
    z.object({
      name: z.string().transform((name, context) => {
        const target = connectionNamed(name);
        if (target === null) {
          context.addIssue({ code: 'custom', message: 'no such connection' });
          return z.NEVER;
        }
        return target;
      }),
    }),
    (_issue, { name }) =>
      new ApiError(
        'not_found',
        `There is no connection named "${String(name)}"; check the name in the address.`,
      ),
  );

  api.post(
    '/:name/check',
    {
      schema: {
        params: connectionParams,
        body: bodySchema(connectionCheckRequestSchema),
        response: { 200: responseSchema(doctorReportSchema) },
      },
    },
    async (request) => {
      const { name: target } = request.params;
      return await refusedAsApiError(runDoctor(target, request.body));
    },
  );

  api.post(
    '/:name/draft-profile',
    {
      schema: {
        params: connectionParams,
        body: bodySchema(profileDraftRequestSchema),
        response: { 200: responseSchema(profileDraftSchema) },
      },
    },
    async (request) => {
      const { name: target } = request.params;
      const { example, sendTest } = request.body;
      const outcome = await refusedAsApiError(
        draftProfile(target, {
          ...(example !== undefined && { example }),
          ...(sendTest === true && {
            sendTest,
            refusedInstead:
              'Draft it without the test send; a test requisition goes only to a test VMS.',
          }),
        }),
      );
      if (!outcome.drafted && outcome.badExample === true) {
        throw new ApiError('invalid_body', `The signed example: ${outcome.problem}.`);
      }
      return outcome.drafted
        ? outcome
        : { drafted: false as const, problem: outcome.problem, tried: outcome.tried };
    },
  );
};

export const connectionRoutes = fp(routes, {
  name: 'connection-routes',
  fastify: '5.x',
  encapsulate: true,
});

/** A test send refused (a production connection) as the error body the page shows. */
async function refusedAsApiError<T>(run: Promise<T>): Promise<T> {
  try {
    return await run;
  } catch (error) {
    if (error instanceof SendTestRefused)
      throw new ApiError('production_send_refused', error.message);
    throw error;
  }
}
