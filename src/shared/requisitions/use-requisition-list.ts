import { useQuery } from '@tanstack/react-query';
import { useCallback, useSyncExternalStore } from 'react';
import type { OrgScope } from '@/shared/api/vms';
import { useOptionalOrg } from '@/shared/config/org-context';
import {
  firstRequisitionsOf,
  requisitionListQueryOptions,
  requisitionListWarningOf,
  subscribeFirstRequisitions,
  subscribeRequisitionListWarnings,
} from './list';
import { listSource } from './list-request';

/**
 * The current client's requisitions, from the browser's copy refreshed incrementally
 * (loadRequisitionList): the list page, the form's suggestions and the candidate picker share it.
 */
export function useRequisitionList(orgs: OrgScope) {
  const config = useOptionalOrg()?.config;
  return useQuery(requisitionListQueryOptions(orgs, listSource(config), config?.fullReadEvery));
}

/**
 * The first records of the current client's list while its first load is under way (null
 * otherwise): a page with no list yet can draw its first rows from them while the rest are taken
 * in. Only the list page shows them; what depends on the whole list waits for it.
 */
export function useFirstRequisitions(orgs: OrgScope) {
  const source = listSource(useOptionalOrg()?.config);
  const { clientOrgId, vendorOrgId } = orgs;
  const read = useCallback(
    () => firstRequisitionsOf({ clientOrgId, vendorOrgId }, source),
    [clientOrgId, vendorOrgId, source],
  );
  return useSyncExternalStore(subscribeFirstRequisitions, read, () => null);
}

/**
 * Why the current client's list is read whole on every refresh (its refresh showed it cannot be
 * trusted), or null: the list page says so above the list.
 */
export function useRequisitionListWarning(orgs: OrgScope) {
  const source = listSource(useOptionalOrg()?.config);
  const { clientOrgId, vendorOrgId } = orgs;
  const read = useCallback(
    () => requisitionListWarningOf({ clientOrgId, vendorOrgId }, source),
    [clientOrgId, vendorOrgId, source],
  );
  return useSyncExternalStore(subscribeRequisitionListWarnings, read, () => null);
}
