import type { LoadedRecord, PayloadKindDescriptor } from '@/domain';
import type { OrgScope } from '@/shared/api/vms';
import type { Tone } from '@/shared/ui/status-badge';
import type { TrayItem } from './tray-state';

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

/** One field an item changes, for people: "Job title: Backend Developer → Lead". */
export interface ItemChange {
  label: string;
  from: string;
  to: string;
}

/** Advice on one item with a one-click remedy (e.g. spec rule 6 on Amend). */
export interface ItemAdvice {
  message: string;
  fixLabel: string;
  /** The items that replace this one, in order. */
  fix(item: WireItem): WireItem[];
}

/** What a kind found out just before a send. */
export interface PreSendCheck {
  /** Items to store as they now are: re-based on the VMS's current record, or held. */
  revised: ReadonlyMap<string, TrayItem>;
  /** Notes for the user that do not stop the send. */
  notes: string[];
}

/** What "Check the VMS" found out about a lost send's items. */
export interface SentCheck {
  /** Items that are in the VMS as sent, each with what shows it. */
  arrived: ReadonlyArray<{ id: string; evidence: string }>;
  /** Items not found. */
  missing: readonly string[];
}

/**
 * A payload kind in the browser: its descriptor (the domain's facts about requisitions or
 * candidates: operations, result rows, labels, catalog, rules) and what the workspaces add to it
 * (how an item is summarised, where it is edited, the checks before a send). The generic batch
 * pieces (tray, JSON preview, send, submissions, results, drafts) read these fields and never
 * branch on which kind they have: one implementation serves both payloads, not a copy per
 * payload (a lint rule keeps kind names out of comparisons under src/core).
 */
export interface BatchKind extends PayloadKindDescriptor {
  /**
   * What to do about an item accepted incomplete (a warning-toned result such as Incomplete),
   * shown where Fix would be; absent when the kind has no such result.
   */
  completeNote?: string;
  /** `loaded`: the record an Amend was loaded from (its wire holds only the changes). */
  summarize(item: WireItem, loaded?: LoadedRecord): ItemSummary;
  /** What an item loaded from the VMS changes; none for other items. */
  changes?(item: TrayItem): ItemChange[];
  /** Advice with a remedy, or null. */
  advice?(item: WireItem): ItemAdvice | null;
  /** Compares loaded items with the VMS before a send; conflicts come back as `held`. */
  beforeSend?(orgs: OrgScope, items: readonly TrayItem[]): Promise<PreSendCheck>;
  /** A held item after the user chose a value for one of its fields. */
  resolveHeld?(item: TrayItem, key: string, keep: 'mine' | 'theirs'): TrayItem;
  /** Looks the items of a lost send up in the VMS; absent when the VMS offers no way. */
  findSent?(orgs: OrgScope, items: readonly TrayItem[], sentAt: string): Promise<SentCheck>;
  /** Problems only visible across items (e.g. two Inserts with the same reference), by index. */
  batchProblems?(items: readonly WireItem[]): ReadonlyMap<number, string>;
  /** The form page that edits an item of this kind (Edit in the tray, Fix in the results). */
  formPath(item: WireItem): string;
  /** Where a created id can be seen, e.g. the requisition list filtered to that Req ID. */
  createdIdPath?(id: string): string;
  /** Query keys whose data a processed batch changes (refetched when its results are final). */
  affects?: readonly string[];
}
