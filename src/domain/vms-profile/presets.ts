import type { DateFormat } from '@/domain/catalog-types';
import type { VmsProfile } from './profile';
import { sandboxSignatureRecipe } from './signature-recipe';

/**
 * The profiles a connection can name instead of writing one out. `sandbox` is the portal's own
 * dialect: what the embedded sandbox answers and what the browser reads. `vectorvms` is what the
 * real service's public documentation says (docs/decisions/031-connections-and-profiles.md): the
 * same paths and names as far as they are documented, but candidate results rows carry no row
 * number (they come in submission order); what is not documented is the sandbox's guess.
 */
export function sandboxProfile(dateFormat: DateFormat = 'YYYY-MM-DD'): VmsProfile {
  return {
    paths: {
      requisitionimport: 'requisitionimport',
      candidates: 'candidates',
      requisitions: 'requisitions',
      requisitionresults: 'requisitionresults?batchid={batchid}',
      candidateresults: 'candidateresults?batchid={batchid}',
    },
    accepted: { statuses: [202], batchId: '/batchid' },
    results: {
      requisition: {
        rows: '',
        rowNumber: 'Row',
        status: 'Status',
        message: 'ErrorMessage',
        createdId: 'Req_Id',
        reference: 'ClientInternalReq',
        statuses: { Pending: 'Pending', Success: 'Success', Error: 'Error' },
      },
      candidate: {
        rows: '',
        rowNumber: 'Row',
        status: 'Cand_Status',
        message: 'CandErrorMessage',
        createdId: 'Cand_Id',
        reference: 'Vendor_Candidate_Id',
        statuses: { Pending: 'Pending', New: 'New', Incomplete: 'Incomplete', Error: 'Error' },
      },
    },
    list: {
      records: '',
      fieldNames: 'PascalCase',
      fields: {
        reqId: 'Req_Id',
        created: 'Req_Created_Date_Time',
        updated: 'Req_Updated_Date_Time',
      },
      filter: { field: 'filterfield', operator: 'filteroperator', value: 'filtervalue' },
      paging: { style: 'none' },
    },
    errors: { message: '/error/message' },
    dates: { outbound: dateFormat, records: dateFormat, dateTimes: 'iso-8601', timeZone: 'UTC' },
    signature: sandboxSignatureRecipe,
  };
}

export function vectorvmsProfile(dateFormat: DateFormat = 'YYYY-MM-DD'): VmsProfile {
  const profile = sandboxProfile(dateFormat);
  return {
    ...profile,
    results: {
      ...profile.results,
      candidate: { ...profile.results.candidate, rowNumber: null },
    },
  };
}

export const profilePresets = {
  sandbox: sandboxProfile,
  vectorvms: vectorvmsProfile,
} as const;

export type ProfilePreset = keyof typeof profilePresets;
export const profilePresetNames = Object.keys(profilePresets) as ProfilePreset[];
