import { z } from 'zod';
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
  wire: WireItem;
  addedAt: string;
}

export interface TrayState {
  items: TrayItem[];
  sendKey: string | null;
}

export const emptyTray: TrayState = { items: [], sendKey: null };

export const trayStateSchema: z.ZodType<TrayState> = z.object({
  items: z.array(
    z.object({
      id: z.string().min(1),
      wire: z.record(z.string(), z.string()),
      addedAt: z.string(),
    }),
  ),
  sendKey: z.string().nullable(),
});

export function addItem(state: TrayState, item: TrayItem): TrayState {
  return { items: [...state.items, item], sendKey: null };
}

/** Replaces an item's payload in place (Edit); an item no longer in the tray is appended. */
export function replaceItem(state: TrayState, id: string, wire: WireItem, now: string): TrayState {
  if (!state.items.some((item) => item.id === id))
    return addItem(state, { id, wire, addedAt: now });
  return {
    items: state.items.map((item) => (item.id === id ? { ...item, wire } : item)),
    sendKey: null,
  };
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
  items.splice(index + 1, 0, { id: copyId, wire: { ...original.wire }, addedAt: now });
  return { items, sendKey: null };
}

export interface Removed {
  item: TrayItem;
  index: number;
}

export function removeItem(state: TrayState, id: string): { state: TrayState; removed?: Removed } {
  const index = state.items.findIndex((item) => item.id === id);
  const item = state.items[index];
  if (!item) return { state };
  return {
    state: { items: state.items.filter((other) => other.id !== id), sendKey: null },
    removed: { item, index },
  };
}

/** Undo of a remove: back where it was (or at the end if the tray changed since). */
export function restoreItem(state: TrayState, { item, index }: Removed): TrayState {
  if (state.items.some((other) => other.id === item.id)) return state;
  const items = [...state.items];
  items.splice(Math.min(index, items.length), 0, item);
  return { items, sendKey: null };
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
  return { items: state.items.filter((item) => !sent.has(item.id)), sendKey: null };
}

/** The exact JSON array that will be sent: the items' payloads in tray order. */
export function trayPayload(state: TrayState): WireItem[] {
  return state.items.map((item) => item.wire);
}
