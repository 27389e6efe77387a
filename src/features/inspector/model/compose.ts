import { vmsOperations, type VmsOperation } from '@/domain/vms-contract';

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

/**
 * A composed batch's body as the items of QA suite cases (decision 038): a JSON array of objects
 * of text values, each item's place in it named. Anything else says what to change.
 */
export function composedItems(
  body: string,
): Array<{ item: Record<string, string>; origin: string }> {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new Error(
      'The body is not JSON. Write it as a JSON array of items, then save it as cases.',
    );
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new Error(
      'The body is not a JSON array of items. Write one, such as [{"titlerole": "…"}].',
    );
  }
  return value.map((element, index) => {
    if (
      typeof element !== 'object' ||
      element === null ||
      Array.isArray(element) ||
      !Object.values(element).every((entry) => typeof entry === 'string')
    ) {
      throw new Error(
        `Item ${index + 1} of the body is not an object of text values, which is what a case holds. Write each value in quotes.`,
      );
    }
    return {
      item: element as Record<string, string>,
      origin: `item ${index + 1} of a composed call`,
    };
  });
}
