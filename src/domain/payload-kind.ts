import type { z } from 'zod';
import {
  candidateResultRowSchema,
  candidateResultStatuses,
  requisitionResultRowSchema,
  requisitionResultStatuses,
  resultStatus,
  type BatchResultRow,
} from './batch-results';
import { candidateCatalog } from './candidate-catalog';
import { candidateItemIssues, type RequisitionContext } from './candidate-wire';
import type { DateFormat, FieldDef } from './catalog-types';
import type { FieldIssue } from './field-issue';
import { requisitionCatalog } from './requisition-catalog';
import type { RequisitionRecord } from './requisition-record';
import { requisitionItemIssues } from './requisition-wire';
import type { VmsOperation } from './vms-contract';

/**
 * The payload kinds, each described once: everything the browser, the portal server, the
 * sandbox and the command line know about requisitions or candidates as payloads (the VMS
 * operations that take and report them, the result rows, what identifies an item, how a sheet of
 * them is read, what people call them) is a field of its descriptor. Code that serves both kinds
 * reads the field; it never asks which kind it has.
 */
export type PayloadKind = 'requisition' | 'candidate';
export const payloadKinds = ['requisition', 'candidate'] as const satisfies readonly PayloadKind[];

/** What a result status says about its item; a status with none is unknown to the portal. */
export type ResultMeaning = 'pending' | 'success' | 'warning' | 'error';

/** The fields of a results row, as the portal's own dialect names them. */
export interface ResultFields {
  batch: string;
  row: string;
  status: string;
  message: string;
  /** The id the VMS gave the item. */
  createdId: string;
  /** The item's own reference, echoed. */
  reference: string;
  /** A second field the status is also written under (the sandbox's candidate rows). */
  statusAlso: string | null;
}

/** One item's result as a VMS keeps it, before it is written as its kind's row. */
export interface StoredResult {
  row: number;
  status: string;
  errorMessage: string;
  resultId: string;
  reference: string;
}

export interface PayloadKindDescriptor {
  id: PayloadKind;
  noun: { one: string; many: string };
  /** Capitalised plural for headings: "Requisitions". */
  title: string;
  /** The POST that takes a batch of them. */
  postOperation: Extract<VmsOperation, 'requisitionimport' | 'candidates'>;
  /** The GET that reports a batch's rows. */
  resultsOperation: Extract<VmsOperation, 'requisitionresults' | 'candidateresults'>;
  /** The documented fields of an item. */
  catalog: readonly FieldDef[];
  /** One item's problems under the kind's rules, by wire key; [] when it may be sent. */
  itemIssues(
    item: unknown,
    options: { dateFormat: DateFormat; requisition?: RequisitionContext },
  ): FieldIssue[];
  /** Every status a result row may have. */
  resultStatuses: readonly string[];
  /** What each status says (Pending and Error mean the same for every kind). */
  statusMeanings: Readonly<Record<string, ResultMeaning>>;
  /** The results row's field names (the profile of another VMS maps its own to these). */
  resultFields: ResultFields;
  /** Reads one row of the results call, in the fields above, into the portal's terms. */
  resultRowSchema: z.ZodType<BatchResultRow, unknown>;
  /** One stored result as the results call writes it, in the fields above (the sandbox's answer). */
  resultRow(batchId: string, result: StoredResult): Record<string, string | number>;
  /** The posted field each result row echoes: ClientInternalReq / Vendor_Candidate_Id. */
  referenceField: string;
  /** Column headings for the created id and the echoed reference. */
  labels: { createdId: string; reference: string };
  /** The start of a batch id the sandbox gives a batch of them: rb_… / cb_…. */
  batchIdPrefix: string;
  /** How a QA suite's case ids made from this kind's items start (`req-…`, `cand-…`). */
  caseIdPrefix: string;
  /**
   * What an item may be sent once as: a new requisition's client internal req (unique within the
   * client org), a candidate's e-mail for one requisition. The tray, the import and the command
   * line flag a second item with the same identity, on `field`.
   */
  identity: {
    field: string;
    /** The identity's value in an item; '' when it has none. */
    of(item: Readonly<Record<string, string>>): string;
    /** The identity of a record of the VMS's requisition list; null: the list holds none of them. */
    ofListed: ((record: RequisitionRecord) => string) | null;
  };
  /** How a spreadsheet of them is read. */
  sheet: {
    /** Values rows take when the sheet has no column for them. */
    defaults: Readonly<Record<string, string>>;
    /** The field that takes the client org chosen when the sheet has no column for it. */
    orgField: string | null;
    /**
     * The field naming the requisition each row is for, when rows are checked against that
     * requisition in the client's list (its skills and questions, whether it takes them).
     */
    requisitionField: string | null;
  };
}

const keyOf = (item: Readonly<Record<string, string>>, key: string) => item[key] ?? '';

/** Writes stored results as rows in `fields`; a status not among `statuses` is a bug. */
function resultRowWriter(fields: ResultFields, statuses: readonly string[]) {
  return (batchId: string, result: StoredResult): Record<string, string | number> => {
    const status = resultStatus(statuses, result.status);
    return {
      [fields.batch]: batchId,
      [fields.row]: result.row,
      ...(fields.statusAlso === null ? {} : { [fields.statusAlso]: status }),
      [fields.status]: status,
      [fields.message]: result.errorMessage,
      [fields.createdId]: result.resultId,
      [fields.reference]: result.reference,
    };
  };
}

const requisitionResultFields: ResultFields = {
  batch: 'Batch_Id',
  row: 'Row',
  status: 'Status',
  message: 'ErrorMessage',
  createdId: 'Req_Id',
  reference: 'ClientInternalReq',
  statusAlso: null,
};

const candidateResultFields: ResultFields = {
  batch: 'Batch_Id',
  row: 'Row',
  status: 'Cand_Status',
  message: 'CandErrorMessage',
  createdId: 'Cand_Id',
  reference: 'Vendor_Candidate_Id',
  // The real service names the status Cand_Status (its documentation, decision 031); the
  // sandbox has always given Status too, and a profile's rows are given both.
  statusAlso: 'Status',
};

export const requisitionPayload: PayloadKindDescriptor = {
  id: 'requisition',
  noun: { one: 'requisition', many: 'requisitions' },
  title: 'Requisitions',
  postOperation: 'requisitionimport',
  resultsOperation: 'requisitionresults',
  catalog: requisitionCatalog,
  itemIssues: requisitionItemIssues,
  resultStatuses: requisitionResultStatuses,
  statusMeanings: { Pending: 'pending', Success: 'success', Error: 'error' },
  resultFields: requisitionResultFields,
  resultRowSchema: requisitionResultRowSchema,
  resultRow: resultRowWriter(requisitionResultFields, requisitionResultStatuses),
  referenceField: 'clientinternalreq',
  labels: { createdId: 'Req ID', reference: 'Client internal req' },
  batchIdPrefix: 'rb',
  caseIdPrefix: 'req',
  identity: {
    field: 'clientinternalreq',
    // An Amend names a requisition that exists; only an Insert (the default) makes one.
    of: (item) => ((item['requesttype'] ?? 'I') === 'I' ? keyOf(item, 'clientinternalreq') : ''),
    ofListed: (record) => record.fields.clientinternalreq,
  },
  sheet: { defaults: { requesttype: 'I' }, orgField: 'orgid', requisitionField: null },
};

export const candidatePayload: PayloadKindDescriptor = {
  id: 'candidate',
  noun: { one: 'candidate', many: 'candidates' },
  title: 'Candidates',
  postOperation: 'candidates',
  resultsOperation: 'candidateresults',
  catalog: candidateCatalog,
  itemIssues: candidateItemIssues,
  resultStatuses: candidateResultStatuses,
  statusMeanings: { Pending: 'pending', New: 'success', Incomplete: 'warning', Error: 'error' },
  resultFields: candidateResultFields,
  resultRowSchema: candidateResultRowSchema,
  resultRow: resultRowWriter(candidateResultFields, candidateResultStatuses),
  referenceField: 'vendorcandidateid',
  labels: { createdId: 'Candidate ID', reference: 'Vendor candidate ID' },
  batchIdPrefix: 'cb',
  caseIdPrefix: 'cand',
  identity: {
    field: 'candemail',
    of: (item) => {
      const email = keyOf(item, 'candemail');
      return email !== ''
        ? `${email.toLowerCase()} to requisition ${keyOf(item, 'requirementid')}`
        : '';
    },
    ofListed: null,
  },
  sheet: { defaults: {}, orgField: null, requisitionField: 'requirementid' },
};

/** Every kind's descriptor, by id. */
export const payloadKindDescriptors: Readonly<Record<PayloadKind, PayloadKindDescriptor>> = {
  requisition: requisitionPayload,
  candidate: candidatePayload,
};

/** The descriptor of a kind. */
export const payloadKindOf = (kind: PayloadKind): PayloadKindDescriptor =>
  payloadKindDescriptors[kind];

/** The kind a VMS operation posts or reports; null for an operation of no kind (GET Requisitions). */
export function payloadKindByOperation(operation: string): PayloadKindDescriptor | null {
  return (
    Object.values(payloadKindDescriptors).find(
      (kind) => kind.postOperation === operation || kind.resultsOperation === operation,
    ) ?? null
  );
}
