import { queryOptions } from '@tanstack/react-query';
import type { PortalConfigResponse } from '../../domain/portal-config';
import { portalConfigSchema } from '../../domain/portal-config';
import { requestJson } from '../api/http';

export type PortalConfig = PortalConfigResponse;

/** `GET /api/config`: the non-secret settings (orgs, date format, limits, which upstream). */
export function portalConfigQueryOptions() {
  return queryOptions({
    queryKey: ['config'],
    queryFn: async ({ signal }) =>
      (
        await requestJson('/api/config', portalConfigSchema, 'Loading the portal settings', {
          signal,
        })
      ).data,
    // Settings change only when the server restarts with other settings.
    staleTime: Number.POSITIVE_INFINITY,
  });
}
