import type { RequisitionRecord } from '@/domain';
import { requisitionListSchema } from '@/domain/requisition-record';
import { listTotalHeader } from '@/domain/vms-contract';
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

/** The records a list call answered, and the VMS's count of all the client's records if it gave one. */
export interface ListAnswer {
  records: RequisitionRecord[];
  /** `list.total` as the portal handed it on (listTotalHeader); null when the VMS gives none. */
  total: number | null;
}

/** `started`: the same call, sent already (the whole list, by the worker as it started). */
export async function fetchRequisitionList(
  orgs: OrgScope,
  filter: RequisitionFilter | null,
  signal: AbortSignal,
  what: string,
  started?: StartedRequest,
): Promise<ListAnswer> {
  const params: Record<string, string> = filter
    ? { filterfield: filter.field, filteroperator: filter.operator, filtervalue: filter.value }
    : {};
  const answer = await requestJson(
    vmsUrl('requisitions', orgs, params),
    requisitionListSchema,
    what,
    { signal, ...(started ? { started } : {}) },
  );
  const total = answer.headers.get(listTotalHeader);
  return {
    records: answer.data,
    total: total !== null && /^\d{1,12}$/.test(total) ? Number(total) : null,
  };
}

export async function fetchRequisitions(
  orgs: OrgScope,
  filter: RequisitionFilter | null,
  signal: AbortSignal,
  what: string,
): Promise<RequisitionRecord[]> {
  return (await fetchRequisitionList(orgs, filter, signal, what)).records;
}
