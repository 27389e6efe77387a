import { queryOptions } from '@tanstack/react-query';
import {
  apiTokenListSchema,
  apiTokenSummarySchema,
  createdApiTokenSchema,
  type CreateApiToken,
} from '@/domain/api-tokens';
import { requestData, requestJson } from '@/shared/api/http';

/*
 * Personal API tokens, as the server's API offers them (domain/api-tokens.ts): the user's own,
 * everyone's for admins, making one (its token in that answer only) and revoking one.
 */

/** Both lists' query keys start with this, so a change refreshes both. */
export const apiTokensKey = ['api-tokens'] as const;

export function ownApiTokensQueryOptions() {
  return queryOptions({
    queryKey: [...apiTokensKey, 'own'],
    queryFn: async ({ signal }) =>
      (await requestJson('/api/tokens', apiTokenListSchema, 'Loading your API tokens', { signal }))
        .data.tokens,
  });
}

export function allApiTokensQueryOptions() {
  return queryOptions({
    queryKey: [...apiTokensKey, 'all'],
    queryFn: async ({ signal }) =>
      (
        await requestJson('/api/tokens/all', apiTokenListSchema, 'Loading everyone’s API tokens', {
          signal,
        })
      ).data.tokens,
  });
}

export async function createApiToken(input: CreateApiToken) {
  return requestData('/api/tokens', createdApiTokenSchema, `Making the token "${input.name}"`, {
    method: 'POST',
    body: input,
  });
}

export async function revokeApiToken(id: string, name: string) {
  return requestData(
    `/api/tokens/${encodeURIComponent(id)}`,
    apiTokenSummarySchema,
    `Revoking the token "${name}"`,
    { method: 'DELETE' },
  );
}
