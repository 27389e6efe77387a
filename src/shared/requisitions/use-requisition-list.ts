import { useQuery } from '@tanstack/react-query';
import type { OrgScope } from '@/shared/api/vms';
import { useOptionalOrg } from '@/shared/config/org-context';
import type { PortalConfig } from '@/shared/config/portal-config';
import { requisitionListQueryOptions } from './list';

/**
 * The current client's requisitions, from the browser's copy refreshed incrementally
 * (loadRequisitionList): the list page, the form's suggestions and the candidate picker share it.
 */
export function useRequisitionList(orgs: OrgScope) {
  return useQuery(requisitionListQueryOptions(orgs, listSource(useOptionalOrg()?.config)));
}

/** Which VMS the list comes from (none known outside the app's provider). */
export function listSource(config: PortalConfig | undefined): string {
  return config ? `${config.upstream.kind}:${config.upstream.label}` : 'unknown';
}
