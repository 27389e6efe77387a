/**
 * The VMS interface as both sides of the portal see it (spec, "Endpoints"; docs/sandbox.md,
 * "Operations"): the operations, who a call is for, how GET Requisitions
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

/**
 * The header a browser (or a script) names the connection of a VMS call with. Without it a call
 * goes to the deployment's default connection, as every call did before there were several.
 */
export const connectionHeader = 'x-vms-connection';

/**
 * The header the portal's answer to GET Requisitions carries the VMS's count of the client's
 * records in, where the connection's profile names one (`list.total`): the browser's refresh is
 * checked against it.
 */
export const listTotalHeader = 'x-vms-list-total';

/** Whom a VMS call is made for: every operation takes both org ids (spec, "Endpoints"). */
export interface OrgScope {
  clientOrgId: number;
  vendorOrgId: number;
}

/**
 * GET Requisitions filters (the real service's documentation, decision 031): a field, an operator
 * and a value.
 */
export const requisitionFilterFields = [
  { value: 'Req_Id', label: 'Req ID' },
  { value: 'Req_Created_Date_Time', label: 'Created' },
  { value: 'Req_Updated_Date_Time', label: 'Last updated' },
] as const;
/**
 * The query parameters of GET Requisitions' filter: the field compared, how, and with what. The
 * value's meaning is the field's, so whether it is personal is too.
 */
export const requisitionFilterParams = {
  field: 'filterfield',
  operator: 'filteroperator',
  value: 'filtervalue',
} as const;
export const requisitionFilterOperators = [
  { value: '=', label: 'is (=)' },
  { value: '>', label: 'after / above (>)' },
  { value: '>=', label: 'on or after (>=)' },
  { value: '<', label: 'before / below (<)' },
  { value: '<=', label: 'on or before (<=)' },
] as const;

export type RequisitionFilterField = (typeof requisitionFilterFields)[number]['value'];
export type RequisitionFilterOperator = (typeof requisitionFilterOperators)[number]['value'];

/** One comparison a filter makes against a stored value. */
export interface FilterCondition {
  operator: RequisitionFilterOperator;
  value: string;
}

function nextDay(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * A date filter (`Req_Created_Date_Time` / `Req_Updated_Date_Time`) as comparisons with UTC
 * date-times (`YYYY-MM-DDTHH:MM:SSZ`, which order as strings). A date (no time) compares by
 * whole UTC days: `= 2026-03-02` is any time that day, `> 2026-03-02` is from the next day on,
 * `<= 2026-03-02` up to the end of that day. A date-time compares exactly. The sandbox answers
 * by these; the portal filters its local copy of the list by them.
 */
export function dateFilterConditions(
  operator: RequisitionFilterOperator,
  value: string,
): FilterCondition[] {
  if (value.length > 10) return [{ operator, value }];
  const start = `${value}T00:00:00Z`;
  const end = `${nextDay(value)}T00:00:00Z`;
  switch (operator) {
    case '=':
      return [
        { operator: '>=', value: start },
        { operator: '<', value: end },
      ];
    case '>':
      return [{ operator: '>=', value: end }];
    case '>=':
      return [{ operator: '>=', value: start }];
    case '<':
      return [{ operator: '<', value: start }];
    case '<=':
      return [{ operator: '<', value: end }];
  }
}

/** Whether `actual` satisfies one condition (numbers compare as numbers, strings as strings). */
export function meetsCondition<T extends number | string>(
  actual: T,
  operator: RequisitionFilterOperator,
  wanted: T,
): boolean {
  switch (operator) {
    case '=':
      return actual === wanted;
    case '>':
      return actual > wanted;
    case '>=':
      return actual >= wanted;
    case '<':
      return actual < wanted;
    case '<=':
      return actual <= wanted;
  }
}

/** Requisition statuses that take candidate submissions: 4 Open, 5 Interview occurring. */
export const submittableStatuses: ReadonlySet<string> = new Set(['4', '5']);
