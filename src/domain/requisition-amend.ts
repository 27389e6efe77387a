import { z } from 'zod';
import { isBlank } from './field-rules';
import type { RequisitionWireKey } from './requisition-catalog';
import { requisitionField, requisitionPeople, requisitionWireKeys } from './requisition-catalog';
import type { RequisitionRecord } from './requisition-record';
import { requisitionRecordToAmendWire } from './requisition-record';
import type { RequisitionWire } from './requisition-wire';
import { blankRequisitionWire, questionRowKeys, skillRowKeys } from './requisition-wire';

/**
 * A requisition as the user loaded it from the VMS to amend it (decision 003): its Req ID, when
 * the VMS last changed it, and its values by wire key.
 * Kept with the form, its draft and the tray item, so what is sent is measured against it.
 */
export interface LoadedRecord {
  id: string;
  updatedAt: string;
  values: Record<string, string>;
}

export const loadedRecordSchema: z.ZodType<LoadedRecord> = z.object({
  id: z.string(),
  updatedAt: z.string(),
  values: z.record(z.string(), z.string()),
});

export function loadedRecordOf(record: RequisitionRecord): LoadedRecord {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(requisitionRecordToAmendWire(record))) {
    if (value !== undefined) values[key] = value;
  }
  return { id: record.reqId, updatedAt: record.updatedAt, values };
}

/** Always sent on Amend: what it is and which requisition it finds (spec, "Requisition import"). */
export const amendIdentifyingKeys = ['requesttype', 'orgid', 'clientinternalreq'] as const;
const identifying = new Set<string>(amendIdentifyingKeys);

/**
 * Skills and questions are sets: the VMS replaces a set whole when any of its fields is given
 * (decision 011, rule 9), so a change to one row sends every row of its set, as the form has
 * them. That keeps the unchanged rows, and lets a removed row be removed.
 */
const rowSets: RequisitionWireKey[][] = [
  skillRowKeys.flatMap((keys) => [keys.sequence, ...keys.parts.map(({ key }) => key)]),
  questionRowKeys.flatMap((keys) => [keys.sequence, keys.description]),
];
const inRow = new Set<string>(rowSets.flat());
const scalarKeys = requisitionWireKeys.filter((key) => !identifying.has(key) && !inRow.has(key));

const valueOf = (values: Readonly<Record<string, string>>, key: string) =>
  (values[key] ?? '').trim();

/**
 * The Amend to send: the identifying keys, and the fields whose value differs from the loaded
 * one; every other field `""`, which the VMS reads as "leave unchanged". A change to any skill
 * (or question) sends the whole set of skills (or questions). A field the user emptied is not
 * sent: a blank cannot clear a value on Amend (the form says so beside the field).
 */
export function amendWire(
  loaded: Readonly<Record<string, string>>,
  edited: Readonly<Record<string, string>>,
): RequisitionWire {
  const wire = blankRequisitionWire();
  for (const key of amendIdentifyingKeys) wire[key] = valueOf(edited, key);
  const changed = (key: string) => valueOf(edited, key) !== valueOf(loaded, key);
  for (const key of scalarKeys) {
    if (!isBlank(edited[key]) && changed(key)) wire[key] = valueOf(edited, key);
  }
  for (const set of rowSets) {
    if (set.some(changed)) for (const key of set) wire[key] = valueOf(edited, key);
  }
  return wire;
}

export interface FieldChange {
  key: RequisitionWireKey;
  label: string;
  from: string;
  to: string;
}

function labelOf(key: RequisitionWireKey): string {
  return requisitionField(key)?.label ?? key;
}

/** What an Amend changes, as "field: from → to" (the tray and the preview show these). */
export function amendChanges(
  loaded: Readonly<Record<string, string>>,
  wire: Readonly<Record<string, string>>,
): FieldChange[] {
  // A set that is sent replaces the VMS's whole set: its emptied fields are changes too.
  const sentSets = new Set(rowSets.filter((set) => set.some((key) => !isBlank(wire[key]))).flat());
  return requisitionWireKeys
    .filter((key) => !identifying.has(key) && (!isBlank(wire[key]) || sentSets.has(key)))
    .filter((key) => valueOf(wire, key) !== valueOf(loaded, key))
    .map((key) => ({
      key,
      label: labelOf(key),
      from: valueOf(loaded, key),
      to: valueOf(wire, key),
    }));
}

/** The form's values for an item: what was loaded, with the item's changes on top. */
export function amendAsEdited(
  loaded: Readonly<Record<string, string>>,
  wire: Readonly<Record<string, string>>,
): Record<string, string> {
  const merged: Record<string, string> = { ...loaded };
  for (const [key, value] of Object.entries(wire)) {
    if (!isBlank(value) || identifying.has(key)) merged[key] = value;
  }
  return merged;
}

export interface AmendConflict {
  /** A wire key (a string, so a stored conflict needs no cast to be read back). */
  key: string;
  label: string;
  /** As loaded, as the user wants it, as the VMS has it now. */
  loaded: string;
  mine: string;
  theirs: string;
}

export interface Freshness {
  /** Fields someone else changed that this Amend changes too, to another value. */
  conflicts: AmendConflict[];
  /** Fields someone else changed that this Amend leaves alone: a note, and it goes. */
  changedElsewhere: FieldChange[];
}

/**
 * Compares a loaded Amend with the VMS's current record. A field this Amend
 * sets that someone else changed since loading is a conflict, unless both made the same change.
 */
export function amendFreshness(
  loaded: LoadedRecord,
  current: LoadedRecord,
  wire: Readonly<Record<string, string>>,
): Freshness {
  const conflicts: AmendConflict[] = [];
  const changedElsewhere: FieldChange[] = [];
  for (const key of requisitionWireKeys) {
    if (identifying.has(key)) continue;
    const before = valueOf(loaded.values, key);
    const now = valueOf(current.values, key);
    if (before === now) continue;
    const mine = valueOf(wire, key);
    if (mine === '') changedElsewhere.push({ key, label: labelOf(key), from: before, to: now });
    else if (mine !== now)
      conflicts.push({ key, label: labelOf(key), loaded: before, mine, theirs: now });
  }
  return { conflicts, changedElsewhere };
}

/**
 * The user's answer to a conflict: keep their value, or take the VMS's (the field is then not
 * sent, or its row is sent with the VMS's value). Either way the field is measured against the
 * current record from now on.
 */
export function resolveConflict(
  loaded: LoadedRecord,
  current: LoadedRecord,
  wire: Readonly<Record<string, string>>,
  key: string,
  keep: 'mine' | 'theirs',
): { loaded: LoadedRecord; wire: Record<string, string> } {
  const next = { ...wire };
  if (keep === 'theirs') next[key] = inRow.has(key) ? valueOf(current.values, key) : '';
  return {
    loaded: { ...loaded, values: { ...loaded.values, [key]: valueOf(current.values, key) } },
    wire: next,
  };
}

const personKeys = (stem: string) => [`${stem}id`, `${stem}firstname`, `${stem}lastname`];
const ownerKeys = personKeys('reqowner');
const otherPeopleKeys = requisitionPeople
  .filter(({ stem }) => stem !== 'reqowner')
  .flatMap(({ stem }) => personKeys(stem));

/**
 * Spec rule 6: on Amend the owner fields change the owner only when the client contact and
 * reports-to fields are blank. An Amend that sets both would keep the old owner silently.
 */
export function ownerChangeIgnored(wire: Readonly<Record<string, string>>): boolean {
  return (
    valueOf(wire, 'requesttype') === 'A' &&
    ownerKeys.some((key) => !isBlank(wire[key])) &&
    otherPeopleKeys.some((key) => !isBlank(wire[key]))
  );
}

/**
 * Rule 6's way out: the same Amend without the owner, then one that changes only the owner
 * (contact and reports-to blank), so the VMS applies both, in this order.
 */
export function splitOwnerChange(
  wire: Readonly<Record<string, string>>,
): [RequisitionWire, RequisitionWire] {
  const rest = { ...blankRequisitionWire(), ...wire };
  const owner = blankRequisitionWire();
  for (const key of amendIdentifyingKeys) owner[key] = valueOf(wire, key);
  for (const key of ownerKeys) {
    owner[key as RequisitionWireKey] = valueOf(wire, key);
    rest[key as RequisitionWireKey] = '';
  }
  return [rest, owner];
}
