import { useMemo } from 'react';
import type { PayloadKind } from '../../../domain';
import { newId } from '../../../shared/lib/ids';
import type { LocalStore } from '../../../shared/storage/local-store';
import { localStore, storageKey, useLocalStore } from '../../../shared/storage/local-store';
import type { WireItem } from '../model/batch-kind';
import type { Removed, TrayState } from '../model/tray-state';
import {
  addItem,
  duplicateItem,
  emptyTray,
  removeItem,
  replaceItem,
  restoreItem,
  trayStateSchema,
} from '../model/tray-state';

/** The tray of one payload kind for one client org, kept in browser storage. */
export function trayStore(kind: PayloadKind, clientOrgId: number): LocalStore<TrayState> {
  return localStore(storageKey('tray', kind, clientOrgId), trayStateSchema, emptyTray);
}

export interface BatchTray {
  state: TrayState;
  store: LocalStore<TrayState>;
  add(wire: WireItem): string;
  replace(id: string, wire: WireItem): void;
  duplicate(id: string): void;
  remove(id: string): Removed | undefined;
  restore(removed: Removed): void;
}

export function useBatchTray(kind: PayloadKind, clientOrgId: number): BatchTray {
  const store = trayStore(kind, clientOrgId);
  const state = useLocalStore(store);
  const actions = useMemo(
    () => ({
      add(wire: WireItem) {
        const id = newId();
        store.update((current) =>
          addItem(current, { id, wire, addedAt: new Date().toISOString() }),
        );
        return id;
      },
      replace(id: string, wire: WireItem) {
        store.update((current) => replaceItem(current, id, wire, new Date().toISOString()));
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
