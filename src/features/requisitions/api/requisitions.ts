/**
 * GET Requisitions serves both workspaces (the list and Amend here, the candidate form's
 * requisition picker), so it lives in src/shared/api; this re-export keeps the feature's imports.
 */
export * from '../../../shared/api/requisitions';
