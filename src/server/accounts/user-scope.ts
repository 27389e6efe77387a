import type { FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import { roleRank } from '@/domain/auth';
import { replayOfHeader, uncheckedHeader } from '@/domain/journal';
import type { Connection } from '@/server/config';

/**
 * What a signed-in user may send through the proxy, checked after the
 * deployment's own org check: the client org must be one granted to them (admins: all of the
 * deployment's), and re-sending a journal entry or sending without the browser's checks is QA's.
 * Hand-made calls get the same answer as the app's: 403 forbidden, nothing sent. Sign-in off: no
 * user, nothing more to check.
 */
export function checkUserScope(
  request: Pick<FastifyRequest, 'portalSession' | 'headers'>,
  clientOrgId: number,
): void {
  const user = request.portalSession?.user;
  if (!user) return;
  if (!user.clientOrgIds.includes(clientOrgId)) {
    throw new ApiError(
      'forbidden',
      `Your account may not act for client org ${clientOrgId}. ${
        user.clientOrgIds.length === 0
          ? 'It has no client org yet'
          : `It may act for ${user.clientOrgIds.join(', ')}`
      }; ask an admin for access to ${clientOrgId}. Nothing was sent.`,
      [{ field: 'Client_Org_Id', message: 'not granted to you' }],
    );
  }
  if (roleRank[user.role] >= roleRank.qa) return;
  for (const [header, what] of [
    [replayOfHeader, 'Sending a recorded call again'],
    [uncheckedHeader, 'Sending without the local checks'],
  ] as const) {
    if (request.headers[header] !== undefined) {
      throw new ApiError(
        'forbidden',
        `${what} is for QA and admins; your account is a recruiter's. Send it from the form instead. Nothing was sent.`,
        [{ field: header, message: 'needs the qa role' }],
      );
    }
  }
}

/**
 * The connections an account may use, by name, in the deployment's order: every one for admins
 * and for accounts with no list (null); otherwise those of its list the deployment still has.
 */
export function grantedConnections(
  connections: readonly Connection[],
  user: { role: string; connections: readonly string[] | null },
): string[] {
  const names = connections.map((connection) => connection.name);
  if (user.role === 'admin' || user.connections === null) return names;
  const granted = new Set(user.connections);
  return names.filter((name) => granted.has(name));
}
