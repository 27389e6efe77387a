import type { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import type { SessionUser } from '@/domain/auth';
import type { PortalConfig } from '@/server/config';
import type { SuiteRecord, SuiteStore } from './suite-store';

/* What the suites', the runs' and the schedules' routes read from a request: ids, bodies, the stored
   suite they name, and the connection they ask for. */

/** A path id: a whole number, or the thing is not there. */
export function pathId(value: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    throw new ApiError(
      'not_found',
      `There is no ${what} "${value.slice(0, 40)}": ids are whole numbers.`,
    );
  }
  return Number(value);
}

/** Zod's first problems as a sentence a QA engineer can act on, and as details. */
function invalid(error: z.ZodError, what: string): ApiError {
  const issues = error.issues.slice(0, 10);
  return new ApiError(
    'invalid_body',
    `${what}: ${issues.map((issue) => `${issue.path.join('.') || 'the body'}: ${issue.message}`).join('; ')}.`,
    issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message })),
  );
}

export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, what);
  return parsed.data;
}

/** Suite `id` as stored, at `version` or its latest; a 404 saying why when there is none. */
export async function storedSuite(
  store: SuiteStore,
  id: number,
  version?: number,
): Promise<SuiteRecord> {
  const found = await store.getSuite(id, version);
  if (!found) {
    throw new ApiError(
      'not_found',
      version === undefined
        ? `There is no suite ${id}: it may have been deleted. Reload the list of suites.`
        : `Suite ${id} has no version ${version}. Its versions are listed under /api/suites/${id}/versions.`,
    );
  }
  return found;
}

/** The client orgs of `connection` that `user` may act for (all of them with sign-in off). */
export function permittedOrgs(
  connection: PortalConfig['connections'][number],
  user: SessionUser | null,
): number[] {
  return connection.clientOrgIds.filter((org) => user === null || user.clientOrgIds.includes(org));
}

/**
 * The connection a run or a schedule names, with the client orgs the asker may act for on it; an
 * error saying why when the portal has no such connection or the asker may not use it. `refused`
 * finishes the refusal's sentence: why the grant matters (may be empty) and what was not done.
 */
export function grantedConnection(
  config: PortalConfig,
  user: SessionUser | null,
  wanted: string,
  refused: { because: string; nothing: string },
): { connection: PortalConfig['connections'][number]; permitted: number[] } {
  const name = wanted.trim().toLowerCase();
  const connection = config.connections.find((entry) => entry.name === name);
  if (!connection) {
    throw new ApiError(
      'unknown_connection',
      `This portal has no VMS connection named "${name}". It has ${config.connections.map((entry) => entry.name).join(', ')}.`,
      [{ field: 'connection', message: 'no such connection' }],
    );
  }
  if (user && !user.connections.includes(connection.name)) {
    throw new ApiError(
      'connection_not_permitted',
      `Your account may not use the connection ${connection.label} (${connection.name})${refused.because}; ask an admin for access. ${refused.nothing}`,
      [{ field: 'connection', message: 'not granted to you' }],
    );
  }
  return { connection, permitted: permittedOrgs(connection, user) };
}
