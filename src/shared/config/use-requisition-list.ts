import { useQuery } from '@tanstack/react-query';
import { requisitionListQueryOptions } from '../api/requisitions';
import type { OrgScope } from '../api/vms';
import { useOptionalOrg } from './org-context';

/**
 * The current client's requisitions, from the browser's copy refreshed incrementally
 * (loadRequisitionList): the list page, the form's suggestions and the candidate picker share it.
 */
export function useRequisitionList(orgs: OrgScope) {
  const upstream = useOptionalOrg()?.config.upstream;
  const source = upstream ? `${upstream.kind}:${upstream.label}` : 'unknown';
  return useQuery(requisitionListQueryOptions(orgs, source));
}
