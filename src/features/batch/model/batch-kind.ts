import type { z } from 'zod';
import type { DateFormat, FieldIssue, PayloadKind } from '../../../domain';
import type { VmsOperation } from '../../../shared/api/vms';
import type { Tone } from '../../../shared/ui/status-badge';

/** One payload object exactly as sent: every documented key, string values. */
export type WireItem = Record<string, string>;

/** One row of a batch's results, whatever the payload (requisition or candidate). */
export interface ResultRow {
  /** 1-based position in the batch. */
  row: number;
  /** As the VMS says it: Pending, Success, Error, New, Incomplete… */
  status: string;
  tone: Tone;
  pending: boolean;
  failed: boolean;
  /** ErrorMessage / CandErrorMessage; '' when none. */
  message: string;
  /** Req_Id / Cand_Id; '' until known. */
  createdId: string;
  /** ClientInternalReq / Vendor_Candidate_Id, as the VMS echoes it. */
  reference: string;
}

/** How the tray, the results and the history describe one item. */
export interface ItemSummary {
  /** Short code shown as a badge: I, A (requisitions), C (candidates). */
  badge: string;
  badgeLabel: string;
  /** What identifies the item to a person: client internal req, candidate e-mail… */
  reference: string;
  title: string;
}

/**
 * A payload kind: everything the generic batch pieces (tray, JSON preview, send, submissions,
 * results, drafts) need to know about requisitions or candidates. The workspaces supply one
 * each; the pieces never branch on the kind themselves (issue 6: "one implementation serving
 * both payloads, not a copy per payload").
 */
export interface BatchKind {
  id: PayloadKind;
  noun: { one: string; many: string };
  /** Capitalised plural for headings: "Requisitions". */
  title: string;
  postOperation: Extract<VmsOperation, 'requisitionimport' | 'candidates'>;
  resultsOperation: Extract<VmsOperation, 'requisitionresults' | 'candidateresults'>;
  /** Parses GET …results into rows; the VMS's field names live here, not in the pieces. */
  resultRowsSchema: z.ZodType<ResultRow[]>;
  /** Column headings for the created id and the echoed reference. */
  labels: { createdId: string; reference: string };
  summarize(item: WireItem): ItemSummary;
  /** The item's problems under the domain's rules, by wire key; [] when it may be sent. */
  validate(item: WireItem, dateFormat: DateFormat): FieldIssue[];
  /** Problems only visible across items (e.g. two Inserts with the same reference), by index. */
  batchProblems?(items: readonly WireItem[]): ReadonlyMap<number, string>;
  /** The form page that edits an item of this kind (Edit in the tray, Fix in the results). */
  formPath(item: WireItem): string;
  /** Where a created id can be seen, e.g. the requisition list filtered to that Req ID. */
  createdIdPath?(id: string): string;
  /** Query keys whose data a processed batch changes (refetched when its results are final). */
  affects?: readonly string[];
}
