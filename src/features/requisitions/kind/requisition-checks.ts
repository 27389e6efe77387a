import type {
  ItemAdvice,
  ItemChange,
  PreSendCheck,
  SentCheck,
} from '@/core/batch/model/batch-kind';
import type { TrayItem } from '@/core/batch/model/tray-state';
import type { LoadedRecord, RequisitionRecord } from '@/domain';
import {
  amendChanges,
  amendFreshness,
  isBlank,
  loadedRecordOf,
  ownerChangeIgnored,
  resolveConflict,
  splitOwnerChange,
} from '@/domain';
import type { OrgScope } from '@/shared/api/vms';
import { fetchRequisitions } from '@/shared/requisitions';

/** What an Amend loaded from the VMS changes, from → to (decision 003). */
export function requisitionChanges(item: TrayItem): ItemChange[] {
  if (!item.loaded) return [];
  return amendChanges(item.loaded.values, item.wire).map(({ label, from, to }) => ({
    label,
    from,
    to,
  }));
}

/** Spec rule 6: an owner change sent with a contact or reports-to change would be ignored. */
export function requisitionAdvice(wire: Record<string, string>): ItemAdvice | null {
  if (!ownerChangeIgnored(wire)) return null;
  return {
    message:
      'The VMS changes the owner only when the client contact and reports-to fields are blank, so this Amend would keep the old owner.',
    fixLabel: 'Send the owner change as a second Amend',
    fix: (item) => splitOwnerChange(item),
  };
}

/** The API's date-time form, as records carry it: 2026-11-21T19:31:00Z. */
function apiDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

async function recordsSince(
  orgs: OrgScope,
  field: 'Req_Updated_Date_Time' | 'Req_Created_Date_Time',
  since: string,
  what: string,
): Promise<RequisitionRecord[]> {
  return fetchRequisitions(
    orgs,
    { field, operator: '>=', value: since },
    AbortSignal.timeout(60_000),
    what,
  );
}

function describeMoved(
  reqId: string,
  changes: ReadonlyArray<{ label: string; from: string; to: string }>,
) {
  const list = changes.map(({ label, from, to }) => `${label} “${from}” → “${to}”`).join(', ');
  return `Requisition ${reqId} was changed in the VMS since you loaded it (${list}). Your Amend leaves those fields as they are now.`;
}

/**
 * Before a send, each loaded Amend is compared with the VMS's current record.
 * One call covers them all: every requisition updated since the earliest load (a record only
 * ever gets newer, so each loaded one is in the answer).
 */
export async function requisitionsBeforeSend(
  orgs: OrgScope,
  items: readonly TrayItem[],
): Promise<PreSendCheck> {
  const loadedItems = items.filter(
    (item): item is TrayItem & { loaded: LoadedRecord } =>
      item.loaded !== undefined && item.wire.requesttype === 'A',
  );
  const revised = new Map<string, TrayItem>();
  const notes: string[] = [];
  if (loadedItems.length === 0) return { revised, notes };

  const earliest = loadedItems
    .map((item) => item.loaded.updatedAt)
    .filter((time) => time !== '')
    .sort()[0];
  const records = await recordsSince(
    orgs,
    'Req_Updated_Date_Time',
    earliest ?? '1970-01-01T00:00:00Z',
    `Checking ${loadedItems.length === 1 ? 'the amended requisition' : `${loadedItems.length} amended requisitions`} for changes made since they were loaded`,
  );
  const byId = new Map(records.map((record) => [record.reqId, loadedRecordOf(record)]));

  for (const item of loadedItems) {
    const current = byId.get(item.loaded.id);
    if (!current) {
      notes.push(
        `Requisition ${item.loaded.id} could not be found in the VMS to check for changes by others; its Amend is sent as it is.`,
      );
      continue;
    }
    // Values are compared even when the times agree: they are whole seconds.
    const { conflicts, changedElsewhere } = amendFreshness(item.loaded, current, item.wire);
    if (conflicts.length > 0) {
      revised.set(item.id, { ...item, held: { current, conflicts } });
      continue;
    }
    if (changedElsewhere.length > 0) notes.push(describeMoved(item.loaded.id, changedElsewhere));
    // Measured against the record as it is now from here on.
    revised.set(item.id, { ...item, loaded: current, held: undefined });
  }
  return { revised, notes };
}

/**
 * "Check the VMS" after a lost send: an Insert arrived if a requisition with its client internal
 * req was created since shortly before the send; an Amend arrived if its requisition now holds
 * every value the Amend sets.
 */
export async function findSentRequisitions(
  orgs: OrgScope,
  items: readonly TrayItem[],
  sentAt: string,
): Promise<SentCheck> {
  // A margin for the two clocks.
  const since = apiDateTime(new Date(new Date(sentAt).getTime() - 10 * 60_000));
  const needs = (type: 'I' | 'A') => items.some((item) => item.wire.requesttype === type);
  const [created, updated] = await Promise.all([
    needs('I')
      ? recordsSince(orgs, 'Req_Created_Date_Time', since, 'Looking for the new requisitions')
      : Promise.resolve([]),
    needs('A')
      ? recordsSince(orgs, 'Req_Updated_Date_Time', since, 'Looking for the amended requisitions')
      : Promise.resolve([]),
  ]);
  const arrived: { id: string; evidence: string }[] = [];
  const missing: string[] = [];
  for (const item of items) {
    const reference = (item.wire.clientinternalreq ?? '').trim();
    if (item.wire.requesttype === 'I') {
      const found = created.find((record) => record.fields.clientinternalreq === reference);
      if (found) arrived.push({ id: item.id, evidence: `created as requisition ${found.reqId}` });
      else missing.push(item.id);
      continue;
    }
    const found = updated.find(
      (record) => record.fields.clientinternalreq === reference || record.reqId === reference,
    );
    const matches =
      found !== undefined &&
      Object.entries(item.wire).every(
        ([key, value]) =>
          isBlank(value) ||
          key === 'requesttype' ||
          key === 'clientinternalreq' ||
          (found.fields as Record<string, string>)[key] === value.trim(),
      );
    if (found && matches)
      arrived.push({ id: item.id, evidence: `requisition ${found.reqId} shows its changes` });
    else missing.push(item.id);
  }
  return { arrived, missing };
}

/** A held Amend after the user chose a value for one field; once all are chosen it may go. */
export function resolveHeldRequisition(
  item: TrayItem,
  key: string,
  keep: 'mine' | 'theirs',
): TrayItem {
  const held = item.held;
  const conflict = held?.conflicts.find((candidate) => candidate.key === key);
  if (!held || !item.loaded || !conflict) return item;
  const resolved = resolveConflict(item.loaded, held.current, item.wire, conflict.key, keep);
  const conflicts = held.conflicts.filter((other) => other !== conflict);
  return conflicts.length > 0
    ? { ...item, wire: resolved.wire, loaded: resolved.loaded, held: { ...held, conflicts } }
    : { ...item, wire: resolved.wire, loaded: held.current, held: undefined };
}
