/**
 * The requisition data layer, which both workspaces read (the list and Amend, the candidate
 * form's requisition picker) and the import checks against: GET Requisitions through the proxy
 * with the filter the API takes (a field, an operator and a value), the browser's copy of each
 * client's list kept in IndexedDB and refreshed incrementally in a Web Worker, and the queries
 * the pages share.
 */
export {
  requisitionFilterFields as filterFields,
  requisitionFilterOperators as filterOperators,
} from '@/domain/vms-contract';
export type {
  RequisitionFilterField as FilterField,
  RequisitionFilterOperator as FilterOperator,
} from '@/domain/vms-contract';
export { fetchRequisitions, type RequisitionFilter } from './fetch';
export { byReqId } from './sync';
export { startRequisitionSync } from './sync-client';
export {
  forgetRequisitionLists,
  matchesFilter,
  preloadRequisitionList,
  requisitionKeys,
  requisitionListQueryOptions,
  requisitionQueryOptions,
} from './list';
export { listSource } from './list-request';
export {
  useFirstRequisitions,
  useRequisitionList,
  useRequisitionListWarning,
} from './use-requisition-list';
