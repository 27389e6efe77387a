import { queryOptions } from '@tanstack/react-query';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { portalConfigSchema } from '@/domain/portal-config';
import { requestJson } from '@/shared/api/http';

export type PortalConfig = PortalConfigResponse;

/**
 * The settings the server put in the page (index.html's `#portal-config`, the same body as
 * `GET /api/config`), so the first render waits for no request; undefined when the page has none
 * (the dev server's page) or they do not parse, and then they are fetched.
 */
export function settingsInPage(): PortalConfig | undefined {
  const element = typeof document === 'undefined' ? null : document.getElementById('portal-config');
  if (!element?.textContent) return undefined;
  try {
    const parsed = portalConfigSchema.safeParse(JSON.parse(element.textContent));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** `GET /api/config`: the non-secret settings (orgs, date format, limits, which upstream). */
export function portalConfigQueryOptions() {
  return queryOptions({
    initialData: settingsInPage,
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
