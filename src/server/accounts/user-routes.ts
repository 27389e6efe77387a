import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import {
  createdUserSchema,
  createUserSchema,
  endedSessionsSchema,
  updateUserSchema,
  userListSchema,
  userSummarySchema,
} from '@/domain/auth';
import { deploymentClientOrgIds } from '@/domain/portal-config';
import type { PortalConfig } from '@/server/config';
import { requireUser, signedInRoutes } from '@/server/http/require-user';
import {
  bodySchema,
  partSchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';

export interface UserRoutesOptions {
  config: PortalConfig;
}

/** Grants name orgs of this deployment only: anything else is a 400 that names it. */
export function checkGrantable(config: PortalConfig, clientOrgIds: readonly number[]): number[] {
  const orgs = deploymentClientOrgIds(config.connections);
  const unknown = clientOrgIds.filter((id) => !orgs.includes(id));
  if (unknown.length > 0) {
    throw new ApiError(
      'invalid_body',
      `This portal does not act for client org ${unknown.join(', ')}; it acts for ${orgs.join(', ')} (the connections' client orgs). Grant only those.`,
      [{ field: 'clientOrgIds', message: 'not an org of this portal' }],
    );
  }
  return [...new Set(clientOrgIds)];
}

/** Connection grants name connections of this deployment only; null stands for every one. */
export function checkGrantableConnections(
  config: PortalConfig,
  connections: readonly string[] | null,
): string[] | null {
  if (connections === null) return null;
  const names = config.connections.map((connection) => connection.name);
  const unknown = connections.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    throw new ApiError(
      'invalid_body',
      `This portal has no connection named ${unknown.map((name) => `"${name}"`).join(', ')}; it has ${names.join(', ')}. Grant only those.`,
      [{ field: 'connections', message: 'not a connection of this portal' }],
    );
  }
  return names.filter((name) => connections.includes(name));
}

/** `/api/users/:id…`: any text; an id no account has is the route's 404. */
const userParams = partSchema(z.object({ id: z.string() }));

const sameOrgs = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, index) => id === b[index]);

/**
 * Accounts, for admins (decision 026): the list, inviting a user (the answer holds the one-time
 * invite link), changing a user's role, grants or whether they may sign in, and ending their
 * sessions. Disabling a user ends their sessions at once; a role or grant change applies to their
 * next call.
 */
const routes: FastifyPluginAsync<UserRoutesOptions> = async (app, { config }) => {
  const auth = app.accounts;
  signedInRoutes(
    app,
    config,
    'admin',
    'Sign-in is off on this portal, so it has no accounts to manage. Set AUTH=on (or run it behind a reverse proxy with TRUST_PROXY) to use accounts.',
  );

  const api = withRouteSchemas(app);

  api.get('/', { schema: { response: { 200: responseSchema(userListSchema) } } }, async () => {
    return { users: (await auth.users.list()).map((user) => auth.summary(user)) };
  });

  api.post(
    '/',
    {
      schema: {
        body: bodySchema(createUserSchema),
        response: { 201: responseSchema(createdUserSchema) },
      },
    },
    async (request, reply) => {
      const admin = requireUser(request, config, 'admin');
      const { body } = request;
      const clientOrgIds = checkGrantable(config, body.clientOrgIds);
      const connections = checkGrantableConnections(config, body.connections ?? null);
      const id = randomUUID();
      const created = await auth.users.create({
        id,
        email: body.email,
        role: body.role,
        passwordHash: null,
        clientOrgIds,
        connections,
        createdAt: auth.now(),
      });
      if (!created) {
        throw new ApiError(
          'user_exists',
          `There is already an account for ${body.email}. Find it in the list and change it there.`,
          [{ field: 'email', message: 'already has an account' }],
        );
      }
      const invitePath = await auth.invite(id);
      const user = await auth.users.byId(id);
      if (!user) throw new Error('the user just created is not in the store');
      auth.audit(
        'user_created',
        {
          userId: id,
          email: user.email,
          role: user.role,
          clientOrgIds: auth.clientOrgsOf(user),
          connections: auth.portalUser(user).connections,
          by: admin?.user.id ?? null,
        },
        request,
      );
      return reply.code(201).send({ user: auth.summary(user), invitePath });
    },
  );

  api.patch(
    '/:id',
    {
      schema: {
        params: userParams,
        body: bodySchema(updateUserSchema),
        response: { 200: responseSchema(userSummarySchema) },
      },
    },
    async (request) => {
      const admin = requireUser(request, config, 'admin');
      const changes = request.body;
      const before = await auth.users.byId(request.params.id);
      if (!before) throw new ApiError('not_found', 'There is no such user. Reload the list.');
      const clientOrgIds =
        changes.clientOrgIds === undefined
          ? undefined
          : checkGrantable(config, changes.clientOrgIds);
      const connections =
        changes.connections === undefined
          ? undefined
          : checkGrantableConnections(config, changes.connections);
      const losesAdmin =
        before.role === 'admin' &&
        !before.disabled &&
        ((changes.role !== undefined && changes.role !== 'admin') || changes.disabled === true);
      if (losesAdmin && (await auth.users.otherEnabledAdmins(before.id)) === 0) {
        throw new ApiError(
          'last_admin',
          `${before.email} is the only enabled admin: the portal would have nobody to manage its accounts. Make another user admin first.`,
        );
      }
      const after = await auth.users.update(before.id, {
        ...(changes.role === undefined ? {} : { role: changes.role }),
        ...(changes.disabled === undefined ? {} : { disabled: changes.disabled }),
        ...(clientOrgIds === undefined ? {} : { clientOrgIds }),
        ...(connections === undefined ? {} : { connections }),
      });
      if (!after) throw new ApiError('not_found', 'There is no such user. Reload the list.');
      const by = admin?.user.id ?? null;
      if (after.disabled !== before.disabled) {
        if (after.disabled) await auth.sessions.deleteForUser(after.id);
        auth.audit(
          after.disabled ? 'user_disabled' : 'user_enabled',
          {
            userId: after.id,
            email: after.email,
            by,
          },
          request,
        );
      }
      const orgsBefore = auth.clientOrgsOf(before);
      const orgsAfter = auth.clientOrgsOf(after);
      const connectionsBefore = auth.portalUser(before).connections;
      const connectionsAfter = auth.portalUser(after).connections;
      if (
        before.role !== after.role ||
        !sameOrgs(orgsBefore, orgsAfter) ||
        connectionsBefore.join() !== connectionsAfter.join() ||
        (before.connections === null) !== (after.connections === null)
      ) {
        auth.audit(
          'grant_changed',
          {
            userId: after.id,
            email: after.email,
            roleBefore: before.role,
            role: after.role,
            clientOrgIdsBefore: orgsBefore,
            clientOrgIds: orgsAfter,
            connectionsBefore,
            connections: connectionsAfter,
            by,
          },
          request,
        );
      }
      return auth.summary(after);
    },
  );

  // Ending someone's sessions without disabling them: a lost laptop, a shared machine left signed
  // in. They may sign in again at once, which disabling would not let them do.
  api.delete(
    '/:id/sessions',
    { schema: { params: userParams, response: { 200: responseSchema(endedSessionsSchema) } } },
    async (request) => {
      const admin = requireUser(request, config, 'admin');
      const user = await auth.users.byId(request.params.id);
      if (!user) throw new ApiError('not_found', 'There is no such user. Reload the list.');
      const ended = await auth.sessions.deleteForUser(user.id);
      auth.audit(
        'sessions_ended',
        {
          userId: user.id,
          email: user.email,
          sessions: ended,
          by: admin?.user.id ?? null,
        },
        request,
      );
      return { ended };
    },
  );
};

export const userRoutes = fp(routes, {
  name: 'user-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['accounts'],
});
