/**
 * The VMS interface as both sides of the portal see it (spec, "Endpoints"; decisions.md,
 * "Operations and their responses"): the operations, who a call is for, how GET Requisitions
 * filters, and which requisitions take candidates. The browser, the portal server and the sandbox
 * all read these; nothing else lists them.
 */

/** The only operations the portal forwards and the sandbox answers, with their methods. */
export const vmsOperations = [
  { name: 'requisitionimport', method: 'POST' },
  { name: 'candidates', method: 'POST' },
  { name: 'requisitions', method: 'GET' },
  { name: 'requisitionresults', method: 'GET' },
  { name: 'candidateresults', method: 'GET' },
] as const;

export type VmsOperation = (typeof vmsOperations)[number]['name'];

/** "POST /api/vms/requisitionimport, …" for messages; `prefix` is where they are served. */
export function describeOperations(prefix: string): string {
  return vmsOperations.map(({ name, method }) => `${method} ${prefix}${name}`).join(', ');
}

/** Whom a VMS call is made for: every operation takes both org ids (spec, "Endpoints"). */
export interface OrgScope {
  clientOrgId: number;
  vendorOrgId: number;
}

/** GET Requisitions filters (vms-api-notes.md): a field, an operator and a value. */
export const requisitionFilterFields = [
  { value: 'Req_Id', label: 'Req ID' },
  { value: 'Req_Created_Date_Time', label: 'Created' },
  { value: 'Req_Updated_Date_Time', label: 'Last updated' },
] as const;
export const requisitionFilterOperators = [
  { value: '=', label: 'is (=)' },
  { value: '>', label: 'after / above (>)' },
  { value: '>=', label: 'on or after (>=)' },
  { value: '<', label: 'before / below (<)' },
  { value: '<=', label: 'on or before (<=)' },
] as const;

export type RequisitionFilterField = (typeof requisitionFilterFields)[number]['value'];
export type RequisitionFilterOperator = (typeof requisitionFilterOperators)[number]['value'];

/** Requisition statuses that take candidate submissions: 4 Open, 5 Interview occurring. */
export const submittableStatuses: ReadonlySet<string> = new Set(['4', '5']);
