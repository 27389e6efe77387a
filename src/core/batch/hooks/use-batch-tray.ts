import { use, useMemo } from 'react';
import type { WireItem } from '@/core/batch/model/batch-kind';
import type { Removed, ResendOf, TrayState } from '@/core/batch/model/tray-state';
import {
  addItems,
  addResends,
  duplicateItem,
  emptyTray,
  removeItem,
  replaceFromJson,
  replaceItem,
  restoreItem,
  reviseItem,
  settleLost,
  splitItem,
  trayStateSchema,
  type TrayItem,
} from '@/core/batch/model/tray-state';
import type { PayloadKind } from '@/domain';
import type { LoadedRecord } from '@/domain';
import { unscopedKey, workScope } from '@/shared/config/current-connection';
import { newId } from '@/shared/lib/ids';
import type { IndexedListStore } from '@/shared/storage/indexed-list-store';
import { indexedListStore } from '@/shared/storage/indexed-list-store';
import { storageKey, useLocalStore } from '@/shared/storage/local-store';

/**
 * The tray of one payload kind for one client org, kept in IndexedDB item by item (moved there
 * from its localStorage key of earlier versions, under the same name).
 */
export function trayStore(
  kind: PayloadKind,
  clientOrgId: number,
  /** Another connection's tray (a batch copied there); the page's own by default. */
  connection?: string,
): IndexedListStore<TrayState> {
  return indexedListStore<TrayItem, TrayState>(
    storageKey('tray', kind, workScope(clientOrgId, connection)),
    trayStateSchema,
    emptyTray,
    unscopedKey(clientOrgId, (scope) => storageKey('tray', kind, scope), connection),
  );
}

/**
 * Items appended to the tray at once (an import's rows): their ids once they are stored, or null
 * when the browser would not store them. Then none is added: they are taken out again (and only
 * they, should the tray have changed meanwhile), so the rows stay in the import rather than sit
 * in a tray a reload would lose.
 */
export async function addManyToTray(
  store: IndexedListStore<TrayState>,
  wires: readonly WireItem[],
  makeId: () => string,
  addedAt: string,
): Promise<string[] | null> {
  await store.ready;
  const items = wires.map((wire) => ({ id: makeId(), wire, addedAt }));
  store.set(addItems(store.get(), items));
  if (await store.flush()) return items.map((item) => item.id);
  const ids = new Set(items.map((item) => item.id));
  store.update((current) => ({
    ...current,
    items: current.items.filter((item) => !ids.has(item.id)),
  }));
  return null;
}

/** A failed row of a sent batch, to be sent again. */
interface Resend {
  wire: WireItem;
  loaded?: LoadedRecord | undefined;
  resendOf: ResendOf;
}

export interface BatchTray {
  state: TrayState;
  store: IndexedListStore<TrayState>;
  add(wire: WireItem, loaded?: LoadedRecord, resendOf?: ResendOf): string;
  /**
   * Items appended at once (an import's rows); resolves with their ids once they are stored, or
   * null when the browser would not store them (nothing is added then).
   */
  addMany(wires: readonly WireItem[]): Promise<string[] | null>;
  /** Failed rows of a sent batch, to be sent again; returns how many were added. */
  addResends(resends: readonly Resend[]): Promise<number>;
  replace(id: string, wire: WireItem, loaded?: LoadedRecord): void;
  /** The whole tray from its JSON edited by hand: element i replaces item i. */
  replaceFromJson(elements: ReadonlyArray<{ wire: WireItem; raw?: unknown }>): void;
  split(id: string, wires: readonly WireItem[]): void;
  revise(id: string, revise: (item: TrayItem) => TrayItem): void;
  /** A lost send is settled: the items that arrived leave, the rest are unlocked. */
  settleLost(arrivedIds: readonly string[]): void;
  duplicate(id: string): void;
  remove(id: string): Removed | undefined;
  restore(removed: Removed): void;
}

/**
 * The tray, with its actions. `suspend` (the tray panel): wait until it is loaded (once per page)
 * under a Suspense boundary. Without it (the form's "Add to batch"), the tray reads as empty until
 * loaded, and changes made meanwhile are applied once it is, so none is lost.
 */
export function useBatchTray(
  kind: PayloadKind,
  clientOrgId: number,
  { suspend = true }: { suspend?: boolean } = {},
): BatchTray {
  const store = trayStore(kind, clientOrgId);
  if (suspend) use(store.ready);
  const state = useLocalStore(store);
  const actions = useMemo(
    () => ({
      add(wire: WireItem, loaded?: LoadedRecord, resendOf?: ResendOf) {
        const id = newId();
        store.update((current) =>
          addItems(current, [{ id, wire, addedAt: new Date().toISOString(), loaded, resendOf }]),
        );
        return id;
      },
      addMany(wires: readonly WireItem[]) {
        return addManyToTray(store, wires, newId, new Date().toISOString());
      },
      async addResends(resends: readonly Resend[]) {
        // Read what the tray holds first: a row already in it is not added twice.
        await store.ready;
        const now = new Date().toISOString();
        const { state: next, added } = addResends(
          store.get(),
          resends.map((resend) => ({ id: newId(), addedAt: now, ...resend, asRefused: true })),
        );
        if (added > 0) store.set(next);
        return added;
      },
      replaceFromJson(elements: ReadonlyArray<{ wire: WireItem; raw?: unknown }>) {
        store.update((current) =>
          replaceFromJson(current, elements, new Date().toISOString(), newId),
        );
      },
      replace(id: string, wire: WireItem, loaded?: LoadedRecord) {
        store.update((current) => replaceItem(current, id, wire, new Date().toISOString(), loaded));
      },
      split(id: string, wires: readonly WireItem[]) {
        store.update((current) =>
          splitItem(
            current,
            id,
            wires.map((wire) => ({ id: newId(), wire })),
          ),
        );
      },
      revise(id: string, revise: (item: TrayItem) => TrayItem) {
        store.update((current) => reviseItem(current, id, revise));
      },
      settleLost(arrivedIds: readonly string[]) {
        store.update((current) => settleLost(current, arrivedIds));
      },
      duplicate(id: string) {
        store.update((current) => duplicateItem(current, id, newId(), new Date().toISOString()));
      },
      remove(id: string) {
        const { state: next, removed } = removeItem(store.get(), id);
        store.set(next);
        return removed;
      },
      restore(removed: Removed) {
        store.update((current) => restoreItem(current, removed));
      },
    }),
    [store],
  );
  return { state, store, ...actions };
}
