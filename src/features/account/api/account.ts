import { queryOptions } from '@tanstack/react-query';
import type { Role } from '@/domain/auth';
import {
  createdUserSchema,
  endedSessionsSchema,
  sessionStateSchema,
  userListSchema,
  userSummarySchema,
} from '@/domain/auth';
import { requestData, requestJson, setCsrfToken } from '@/shared/api/http';

/*
 * Invites and users, as the server's API offers them (domain/auth.ts). Signing in and
 * out are the session's (shared/session).
 */
export async function acceptInvite(token: string, password: string) {
  const state = (
    await requestJson(
      `/api/invites/${encodeURIComponent(token)}`,
      sessionStateSchema,
      'Setting your password',
      { method: 'POST', body: { password } },
    )
  ).data;
  setCsrfToken(state.csrfToken);
  return state;
}

/** The accounts list's query key, refreshed after any change to an account. */
export const usersKey = ['users'] as const;

export function usersQueryOptions() {
  return queryOptions({
    queryKey: usersKey,
    queryFn: async ({ signal }) =>
      (await requestJson('/api/users', userListSchema, 'Loading the users', { signal })).data.users,
  });
}

export async function createUser(input: {
  email: string;
  role: Role;
  clientOrgIds: number[];
  connections: string[];
}) {
  return requestData('/api/users', createdUserSchema, `Inviting ${input.email}`, {
    method: 'POST',
    body: input,
  });
}

export async function updateUser(
  id: string,
  change: { role?: Role; clientOrgIds?: number[]; connections?: string[]; disabled?: boolean },
) {
  return requestData(`/api/users/${encodeURIComponent(id)}`, userSummarySchema, 'Saving the user', {
    method: 'PATCH',
    body: change,
  });
}

/** Ends every session of a user (admins); they stay enabled and may sign in again. */
export async function endUserSessions(id: string): Promise<number> {
  return (
    await requestJson(
      `/api/users/${encodeURIComponent(id)}/sessions`,
      endedSessionsSchema,
      'Ending the sessions',
      { method: 'DELETE' },
    )
  ).data.ended;
}
