import type { RequisitionRecord } from '@/domain';
import { requisitionListSchema } from '@/domain/requisition-record';
import type {
  RequisitionFilterField as FilterField,
  RequisitionFilterOperator as FilterOperator,
} from '@/domain/vms-contract';
import type { StartedRequest } from '@/shared/api/http';
import { requestJson } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { vmsUrl } from '@/shared/api/vms';

/** GET Requisitions' filter: a field, an operator and a value. */
export interface RequisitionFilter {
  field: FilterField;
  operator: FilterOperator;
  value: string;
}

/** `started`: the same call, sent already (the whole list, by the worker as it started). */
export async function fetchRequisitions(
  orgs: OrgScope,
  filter: RequisitionFilter | null,
  signal: AbortSignal,
  what: string,
  started?: StartedRequest,
): Promise<RequisitionRecord[]> {
  const params: Record<string, string> = filter
    ? { filterfield: filter.field, filteroperator: filter.operator, filtervalue: filter.value }
    : {};
  return (
    await requestJson(vmsUrl('requisitions', orgs, params), requisitionListSchema, what, {
      signal,
      ...(started ? { started } : {}),
    })
  ).data;
}
