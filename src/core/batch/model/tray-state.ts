import { z } from 'zod';
import type { AmendConflict, LoadedRecord } from '@/domain';
import { loadedRecordSchema } from '@/domain';
import type { WireItem } from './batch-kind';

/**
 * The batch tray: items waiting to be sent, in order, and the Idempotency-Key of the send in
 * progress. The key is made once per batch and kept with the tray, so a retry after a failed or
 * unanswered send reuses it and the portal server does not forward the same batch twice; any
 * change to the items drops it (the server would refuse the old key with a different body).
 * Pure functions: the hooks persist the result.
 */
export interface TrayItem {
  id: string;
  /** Exactly what is sent for this item. */
  wire: WireItem;
  addedAt: string;
  /** The record an Amend was loaded from: its wire holds only the changes (decision 003). */
  loaded?: LoadedRecord | undefined;
  /** Changed in the VMS since loading, in fields this item changes too: held until decided. */
  held?: { current: LoadedRecord; conflicts: AmendConflict[] } | undefined;
  /** A failed row of a sent batch, sent again (Fix, Fix all failed), with what the VMS said. */
  resendOf?: ResendOf | undefined;
  /**
   * Put back by Fix all failed exactly as the VMS refused it, and not edited since: it passes the
   * portal's checks but not the VMS's, so it needs the user's correction before it is ready.
   */
  asRefused?: true | undefined;
  /**
   * Sent exactly as this JSON value instead of `wire` (which then only describes it): an item
   * edited as raw JSON into something that is not an object of text values. The
   * portal's checks cannot pass it; it goes only in a send without local checks.
   */
  raw?: unknown;
}

export interface ResendOf {
  batchId: string;
  /** 1-based row of that batch. */
  row: number;
  /** The VMS's message for the row ('' when it gave none). */
  message: string;
}

export const resendOfSchema: z.ZodType<ResendOf> = z.object({
  batchId: z.string(),
  row: z.number().int().positive(),
  message: z.string(),
});

/**
 * A send whose answer never came (timeout, lost connection, or the server's outcome_unknown): the
 * VMS may have the batch. Its items are locked and go again only with the same key, so the
 * server can answer with the first outcome instead of sending twice (decision 002).
 */
export interface LostSend {
  key: string;
  itemIds: string[];
  at: string;
  message: string;
}

export interface TrayState {
  items: TrayItem[];
  sendKey: string | null;
  lost?: LostSend | null | undefined;
  /**
   * The journal entry whose request the tray now holds to send again, edited (the inspector's
   * "Edit and send"): the next send is recorded as its replay.
   */
  replayOf?: number | null | undefined;
}

export const emptyTray: TrayState = { items: [], sendKey: null, lost: null };

const conflictSchema: z.ZodType<AmendConflict> = z.object({
  key: z.string(),
  label: z.string(),
  loaded: z.string(),
  mine: z.string(),
  theirs: z.string(),
});

export const trayStateSchema: z.ZodType<TrayState> = z.object({
  items: z.array(
    z.object({
      id: z.string().min(1),
      wire: z.record(z.string(), z.string()),
      addedAt: z.string(),
      loaded: loadedRecordSchema.optional(),
      held: z
        .object({ current: loadedRecordSchema, conflicts: z.array(conflictSchema) })
        .optional(),
      resendOf: resendOfSchema.optional(),
      asRefused: z.literal(true).optional(),
      raw: z.unknown().optional(),
    }),
  ),
  sendKey: z.string().nullable(),
  lost: z
    .object({
      key: z.string(),
      itemIds: z.array(z.string()),
      at: z.string(),
      message: z.string(),
    })
    .nullable()
    .optional(),
  replayOf: z.number().int().positive().nullable().optional(),
});

/** An item of a lost send: it may already be in the VMS, so it cannot change. */
export function isLocked(state: TrayState, id: string): boolean {
  return state.lost?.itemIds.includes(id) ?? false;
}

/** The tray after a change to its items: the next send is a new batch with a new key. */
function changed(state: TrayState, items: TrayItem[]): TrayState {
  return { ...state, items, sendKey: state.lost ? state.sendKey : null };
}

export function addItem(state: TrayState, item: TrayItem): TrayState {
  return addItems(state, [item]);
}

/** Items appended in one change (an import's rows): one new key, one write. */
export function addItems(state: TrayState, items: readonly TrayItem[]): TrayState {
  return items.length === 0 ? state : changed(state, [...state.items, ...items]);
}

const sameRow = (a: ResendOf, b: ResendOf) => a.batchId === b.batchId && a.row === b.row;

/**
 * Failed rows of a sent batch added to be sent again (Fix all failed). A row already in the tray
 * as a resend is not added twice. Returns the tray and how many were added.
 */
export function addResends(
  state: TrayState,
  resends: readonly TrayItem[],
): { state: TrayState; added: number } {
  const rows = state.items.flatMap((item) => (item.resendOf ? [item.resendOf] : []));
  const fresh: TrayItem[] = [];
  for (const item of resends) {
    const row = item.resendOf;
    if (!row || rows.some((other) => sameRow(other, row))) continue;
    rows.push(row);
    fresh.push(item);
  }
  if (fresh.length === 0) return { state, added: 0 };
  return { state: changed(state, [...state.items, ...fresh]), added: fresh.length };
}

function sameWire(a: WireItem, b: WireItem): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** Replaces an item's payload in place (Edit); an item no longer in the tray is appended. */
export function replaceItem(
  state: TrayState,
  id: string,
  wire: WireItem,
  now: string,
  loaded?: LoadedRecord,
): TrayState {
  if (isLocked(state, id)) return state;
  if (!state.items.some((item) => item.id === id))
    return addItem(state, { id, wire, addedAt: now, loaded });
  return changed(
    state,
    state.items.map((item) =>
      item.id === id
        ? {
            id,
            wire,
            addedAt: item.addedAt,
            loaded,
            resendOf: item.resendOf,
            // Saved again unchanged, it is still what the VMS refused.
            ...(item.asRefused && sameWire(item.wire, wire) ? { asRefused: true as const } : {}),
          }
        : item,
    ),
  );
}

/** Replaces one item by several in its place (rule 6: an owner change sent on its own). */
export function splitItem(
  state: TrayState,
  id: string,
  parts: ReadonlyArray<{ id: string; wire: WireItem }>,
): TrayState {
  const index = state.items.findIndex((item) => item.id === id);
  const original = state.items[index];
  if (!original || isLocked(state, id)) return state;
  const items = [...state.items];
  items.splice(index, 1, ...parts.map((part) => ({ ...original, id: part.id, wire: part.wire })));
  return changed(state, items);
}

/** Updates one item's payload and loaded record after a decision (a conflict resolved…). */
export function reviseItem(
  state: TrayState,
  id: string,
  revise: (item: TrayItem) => TrayItem,
): TrayState {
  if (isLocked(state, id)) return state;
  return changed(
    state,
    state.items.map((item) => (item.id === id ? revise(item) : item)),
  );
}

/** A copy placed right after the original. */
export function duplicateItem(
  state: TrayState,
  id: string,
  copyId: string,
  now: string,
): TrayState {
  const index = state.items.findIndex((item) => item.id === id);
  const original = state.items[index];
  if (!original) return state;
  const items = [...state.items];
  items.splice(index + 1, 0, {
    id: copyId,
    wire: { ...original.wire },
    addedAt: now,
    loaded: original.loaded,
    ...(original.raw !== undefined ? { raw: original.raw } : {}),
  });
  return changed(state, items);
}

export interface Removed {
  item: TrayItem;
  index: number;
}

export function removeItem(state: TrayState, id: string): { state: TrayState; removed?: Removed } {
  const index = state.items.findIndex((item) => item.id === id);
  const item = state.items[index];
  if (!item || isLocked(state, id)) return { state };
  return {
    state: changed(
      state,
      state.items.filter((other) => other.id !== id),
    ),
    removed: { item, index },
  };
}

/** Undo of a remove: back where it was (or at the end if the tray changed since). */
export function restoreItem(state: TrayState, { item, index }: Removed): TrayState {
  if (state.items.some((other) => other.id === item.id)) return state;
  const items = [...state.items];
  items.splice(Math.min(index, items.length), 0, item);
  return changed(state, items);
}

/** The key for sending the tray as it is: the kept one, or `fresh` when there is none. */
export function withSendKey(state: TrayState, fresh: string): TrayState {
  return state.sendKey ? state : { ...state, sendKey: fresh };
}

/**
 * After the VMS accepted a batch (202 with a batch id): the sent items leave the tray, and so
 * does the key. Items added while the batch was on its way stay.
 */
export function removeSent(state: TrayState, sentIds: readonly string[]): TrayState {
  const sent = new Set(sentIds);
  return {
    items: state.items.filter((item) => !sent.has(item.id)),
    sendKey: null,
    lost: null,
    replayOf: null,
  };
}

/** The answer to a send never came: lock what was sent, under the key it was sent with. */
export function markLost(state: TrayState, lost: LostSend): TrayState {
  return { ...state, sendKey: lost.key, lost };
}

/**
 * The user found out (or decided) what became of a lost send: the items that reached the VMS
 * leave, the rest are unlocked and go in a new batch with a new key.
 */
export function settleLost(state: TrayState, arrivedIds: readonly string[]): TrayState {
  const arrived = new Set(arrivedIds);
  return {
    items: state.items.filter((item) => !arrived.has(item.id)),
    sendKey: null,
    lost: null,
  };
}

/** What the next send carries: the lost send's items again, or the whole tray. */
export function itemsToSend(state: TrayState): TrayItem[] {
  const lost = state.lost;
  if (!lost) return state.items;
  const ids = new Set(lost.itemIds);
  return state.items.filter((item) => ids.has(item.id));
}

/** What is sent for an item: its raw JSON when it has one, else its wire object. */
export const payloadOf = (item: TrayItem): unknown =>
  item.raw !== undefined ? item.raw : item.wire;

/** The exact JSON array that will be sent: the items' payloads in tray order. */
export function trayPayload(state: TrayState): unknown[] {
  return itemsToSend(state).map(payloadOf);
}

/**
 * The tray after its JSON was edited by hand: element i takes the place of item i (keeping its
 * id, where it came from and what it was loaded from), extra elements are new items, and items
 * past the end are gone. An element that is not an object of text values is kept raw.
 */
export function replaceFromJson(
  state: TrayState,
  elements: ReadonlyArray<{ wire: WireItem; raw?: unknown }>,
  now: string,
  newId: () => string,
): TrayState {
  if (state.lost) return state;
  const items = elements.map((element, index): TrayItem => {
    const before = state.items[index];
    const item: TrayItem = before
      ? { ...before, wire: element.wire }
      : { id: newId(), wire: element.wire, addedAt: now };
    delete item.raw;
    delete item.held;
    if (element.raw !== undefined) item.raw = element.raw;
    return item;
  });
  return changed(state, items);
}

/**
 * A recorded request loaded to be edited and sent again (the inspector's "Edit and send"): its
 * elements are appended, and the next send is recorded as a replay of `entryId`.
 */
export function addReplay(
  state: TrayState,
  elements: ReadonlyArray<{ wire: WireItem; raw?: unknown }>,
  entryId: number,
  now: string,
  newId: () => string,
): TrayState {
  if (state.lost) return state;
  const added = elements.map((element): TrayItem => ({
    id: newId(),
    wire: element.wire,
    addedAt: now,
    ...(element.raw !== undefined ? { raw: element.raw } : {}),
  }));
  return { ...changed(state, [...state.items, ...added]), replayOf: entryId };
}
