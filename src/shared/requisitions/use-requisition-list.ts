import { useQuery } from '@tanstack/react-query';
import type { OrgScope } from '@/shared/api/vms';
import { useOptionalOrg } from '@/shared/config/org-context';
import { requisitionListQueryOptions } from './list';
import { listSource } from './list-request';

/**
 * The current client's requisitions, from the browser's copy refreshed incrementally
 * (loadRequisitionList): the list page, the form's suggestions and the candidate picker share it.
 */
export function useRequisitionList(orgs: OrgScope) {
  return useQuery(requisitionListQueryOptions(orgs, listSource(useOptionalOrg()?.config)));
}
