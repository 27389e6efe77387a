import { vmsOperations, type VmsOperation } from '../../../domain/vms-contract';

/**
 * A call composed in the inspector: any of the VMS operations, with its query, sent through the
 * portal's proxy like any other (signed, its orgs checked, journaled). The form's fields are text
 * as typed; what is sent is built here, so the page and its test agree on it.
 */
export interface ComposedCall {
  operation: VmsOperation;
  clientOrgId: string;
  vendorOrgId: string;
  /** GET Requisitions' filter: all three, or none. */
  filterField: string;
  filterOperator: string;
  filterValue: string;
  /** The batch a results operation asks about. */
  batchId: string;
  /** Anything else for the query, as `name=value&name=value` (a leading `?` is fine). */
  extraQuery: string;
  /** A POST's body, sent byte for byte as typed. */
  body: string;
}

export function methodOf(operation: VmsOperation): 'GET' | 'POST' {
  return vmsOperations.find(({ name }) => name === operation)?.method ?? 'GET';
}

export function isResults(operation: VmsOperation): boolean {
  return operation === 'requisitionresults' || operation === 'candidateresults';
}

/**
 * The portal path of the call: `/api/vms/<operation>?…` with the orgs first, then the
 * operation's own parameters, then the extra ones in the order typed. Empty fields are left out,
 * so the proxy's answer to a missing parameter is QA's to see.
 */
export function composedPath(call: ComposedCall): string {
  const query = new URLSearchParams();
  const add = (name: string, value: string) => {
    if (value.trim() !== '') query.append(name, value.trim());
  };
  add('Client_Org_Id', call.clientOrgId);
  add('Vendor_Org_Id', call.vendorOrgId);
  if (call.operation === 'requisitions' && call.filterValue.trim() !== '') {
    add('filterfield', call.filterField);
    add('filteroperator', call.filterOperator);
    add('filtervalue', call.filterValue);
  }
  if (isResults(call.operation)) add('batchid', call.batchId);
  for (const [name, value] of new URLSearchParams(call.extraQuery.trim().replace(/^\?/, ''))) {
    query.append(name, value);
  }
  const text = query.toString();
  return `/api/vms/${call.operation}${text === '' ? '' : `?${text}`}`;
}
