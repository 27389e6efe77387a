import type {
  RequisitionFilterField as FilterField,
  RequisitionFilterOperator as FilterOperator,
} from '../../domain/vms-contract';
import { queryOptions } from '@tanstack/react-query';
import type { RequisitionRecord } from '../../domain';
import { requisitionListSchema } from '../../domain';
import { requestJson } from './http';
import type { OrgScope } from './vms';
import { vmsUrl } from './vms';

/**
 * GET Requisitions through the proxy (decisions.md, "Operations and their responses"), with the
 * filter the API takes: a field, an operator and a value.
 */
export {
  requisitionFilterFields as filterFields,
  requisitionFilterOperators as filterOperators,
} from '../../domain/vms-contract';
export type {
  RequisitionFilterField as FilterField,
  RequisitionFilterOperator as FilterOperator,
} from '../../domain/vms-contract';

export interface RequisitionFilter {
  field: FilterField;
  operator: FilterOperator;
  value: string;
}

export async function fetchRequisitions(
  orgs: OrgScope,
  filter: RequisitionFilter | null,
  signal: AbortSignal,
  what: string,
): Promise<RequisitionRecord[]> {
  const params: Record<string, string> = filter
    ? { filterfield: filter.field, filteroperator: filter.operator, filtervalue: filter.value }
    : {};
  return (
    await requestJson(vmsUrl('requisitions', orgs, params), requisitionListSchema, what, { signal })
  ).data;
}

/** The client's requisitions, optionally filtered by the API. */
export function requisitionListQueryOptions(orgs: OrgScope, filter: RequisitionFilter | null) {
  return queryOptions({
    queryKey: ['requisitions', 'list', orgs, filter],
    queryFn: ({ signal }) => fetchRequisitions(orgs, filter, signal, 'Loading the requisitions'),
    staleTime: 15_000,
  });
}

/** One requisition by Req ID (the API's Req_Id filter); null when the client has none such. */
export function requisitionQueryOptions(orgs: OrgScope, reqId: string) {
  return queryOptions({
    queryKey: ['requisitions', 'detail', orgs, reqId],
    queryFn: async ({ signal }) => {
      const records = await fetchRequisitions(
        orgs,
        { field: 'Req_Id', operator: '=', value: reqId },
        signal,
        `Loading requisition ${reqId}`,
      );
      return records.find((record) => record.reqId === reqId) ?? null;
    },
  });
}
