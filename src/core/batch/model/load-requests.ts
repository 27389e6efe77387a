import { useSyncExternalStore } from 'react';
import type { PayloadKind } from '@/domain';
import type { WireItem } from './batch-kind';
import type { DraftOrigin } from './drafts';

/**
 * "Load this item into the form": Edit in the tray, Fix in the results. The request waits here
 * (in memory) until the kind's form page takes it; the page then saves it as its draft, so a
 * reload after that point keeps it.
 */
export interface LoadRequest {
  origin: DraftOrigin;
  wire: WireItem;
  /** Names the item in messages: "item 2 of the batch", "row 3 of batch rb_…". */
  label: string;
}

/** A request as it waits: with a token, so a page handles each request once. */
export interface PendingLoad extends LoadRequest {
  token: number;
}

let nextToken = 1;
const pending = new Map<string, PendingLoad>();
const listeners = new Set<() => void>();
const slot = (kind: PayloadKind, clientOrgId: number) => `${kind}:${clientOrgId}`;

export function requestLoad(kind: PayloadKind, clientOrgId: number, request: LoadRequest): void {
  pending.set(slot(kind, clientOrgId), { ...request, token: nextToken++ });
  for (const listener of listeners) listener();
}

/** Removes the request with `token` once its page has handled it. */
export function settleLoad(kind: PayloadKind, clientOrgId: number, token: number): void {
  const key = slot(kind, clientOrgId);
  if (pending.get(key)?.token !== token) return;
  pending.delete(key);
  for (const listener of listeners) listener();
}

/** The waiting request, re-rendering when one arrives. */
export function usePendingLoad(kind: PayloadKind, clientOrgId: number): PendingLoad | undefined {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending.get(slot(kind, clientOrgId)),
    () => undefined,
  );
}
