import { useEffect, useMemo, useReducer } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { WireItem } from '@/core/batch/model/batch-kind';
import type { DraftOrigin, Incoming, Start, StoredDraft } from '@/core/batch/model/drafts';
import { loadedOf } from '@/core/batch/model/drafts';
import { decideStart, sameOrigin, storedDraftSchema } from '@/core/batch/model/drafts';
import { settleLoad, usePendingLoad } from '@/core/batch/model/load-requests';
import type { LoadedRecord } from '@/domain';
import type { PayloadKind } from '@/domain';
import { adoptUnscoped, unscopedKey, workScope } from '@/shared/config/current-connection';
import { debounce } from '@/shared/lib/debounce';
import { sameValues } from '@/shared/lib/same-values';
import type { LocalStore } from '@/shared/storage/local-store';
import { localStore, storageKey, useLocalStore } from '@/shared/storage/local-store';

/** Saves are debounced: a burst of typing is one write. */
export const draftSaveDelayMs = 300;

export function draftStore(
  kind: PayloadKind,
  clientOrgId: number,
  form: string,
): LocalStore<StoredDraft | null> {
  const key = storageKey('draft', kind, workScope(clientOrgId), form);
  adoptUnscoped(
    key,
    unscopedKey(clientOrgId, (scope) => storageKey('draft', kind, scope, form)),
  );
  return localStore(key, storedDraftSchema.nullable(), null);
}

export interface WorkspaceSessionOptions<V> {
  kind: PayloadKind;
  clientOrgId: number;
  /** Which form of the kind: each keeps its own draft ("insert", "amend"). */
  form: string;
  /** Reads stored values onto the form's shape (drafts written by older versions included). */
  normalize(stored: unknown): V;
  /** What a new, empty form holds. */
  blank: Incoming<V>;
  /** Wire item (from Edit or Fix) → form values. */
  /** An item → form values; `loaded` is the record an Amend item's changes apply to. */
  fromWire(wire: WireItem, loaded?: LoadedRecord): V;
  /**
   * What the page itself brings, e.g. the requisition to amend: its origin is known at once,
   * its values once loaded (undefined until then).
   */
  source?: { origin: DraftOrigin; label: string; values: V | undefined } | undefined;
  /** Whether an item loaded by Edit or Fix belongs to this form (e.g. Amend items → Amend form). */
  accepts?(wire: WireItem): boolean;
}

export interface WorkspaceSession<V> {
  /** null while the page's own source is loading and no draft can stand in for it. */
  start: (Start<V> & { key: number }) | null;
  /** Incoming work that would replace unsaved changes, waiting for the user's answer. */
  ask: Incoming<V> | null;
  replaceWithIncoming(): void;
  keepCurrent(): void;
  /** Starts the form afresh (after "Add to batch", or "Discard draft"). */
  restart(next?: Incoming<V>): void;
  draft: LocalStore<StoredDraft | null>;
}

export interface SessionState<V> {
  start: (Start<V> & { key: number }) | null;
  ask: Incoming<V> | null;
  /** The last load request handled (each is handled once). */
  handledLoad: number | null;
  /** Whether the page's own source has been taken into account. */
  sourceSeen: boolean;
}

export interface StoredValues<V> {
  values: V;
  origin: DraftOrigin;
  dirty: boolean;
}

export const initialSession: SessionState<never> = {
  start: null,
  ask: null,
  handledLoad: null,
  sourceSeen: false,
};

/** What the session reacts to: what the page sees now, and the user's answers. */
export type SessionEvent<V> =
  | {
      type: 'sync';
      /** A load request (Edit, Fix) this form accepts, with its values. */
      load: { token: number; incoming: Incoming<V> } | null;
      /** The page's own source: its origin at once, its values once loaded. */
      source: { origin: DraftOrigin; incoming: Incoming<V> | null } | null;
      stored: StoredValues<V> | null;
      blank: Incoming<V>;
    }
  | { type: 'replace-with-incoming' }
  | { type: 'keep-current' }
  | { type: 'restart'; next: Incoming<V> };

function withStart<V>(state: SessionState<V>, start: Start<V>): SessionState<V> {
  return { ...state, start: { ...start, key: (state.start?.key ?? 0) + 1 }, ask: null };
}

/** Incoming work arriving while a form is open, or to start one. */
function applyIncoming<V>(
  state: SessionState<V>,
  incoming: Incoming<V>,
  stored: StoredValues<V> | null,
  blank: Incoming<V>,
): SessionState<V> {
  if (!state.start) {
    const decision = decideStart(stored, incoming, blank);
    return { ...withStart(state, decision.start), ask: decision.ask };
  }
  if (sameOrigin(state.start.origin, incoming.origin)) return state;
  // Unsaved changes are never replaced without asking; an untouched form simply is.
  if (stored?.dirty) return { ...state, ask: incoming };
  return withStart(state, { values: incoming.values, origin: incoming.origin, restored: false });
}

/**
 * The session's decisions, pure: what a workspace form starts with and keeps (the saved draft,
 * the page's own source such as a record to amend, or an item loaded by Edit or Fix), with a
 * draft that has changes never replaced without asking. Returns the same state object when an
 * event changes nothing, so a caller can tell.
 */
export function sessionReducer<V>(state: SessionState<V>, event: SessionEvent<V>): SessionState<V> {
  switch (event.type) {
    case 'replace-with-incoming':
      return state.ask
        ? withStart(state, { values: state.ask.values, origin: state.ask.origin, restored: false })
        : state;
    case 'keep-current':
      return state.ask ? { ...state, ask: null } : state;
    case 'restart':
      return withStart(state, {
        values: event.next.values,
        origin: event.next.origin,
        restored: false,
      });
    case 'sync': {
      const { load, source, stored, blank } = event;
      let next = state;
      if (load && load.token !== next.handledLoad) {
        next = { ...applyIncoming(next, load.incoming, stored, blank), handledLoad: load.token };
      }
      if (source?.incoming && !next.sourceSeen) {
        next = { ...applyIncoming(next, source.incoming, stored, blank), sourceSeen: true };
      }
      if (!next.start) {
        if (!source) {
          next = withStart(next, decideStart(stored, null, blank).start);
        } else if (stored && (stored.dirty || sameOrigin(stored.origin, source.origin))) {
          // The source is still loading: its draft, or any draft with changes, is shown meanwhile.
          next = withStart(next, { ...stored, restored: stored.dirty });
        }
      }
      return next;
    }
  }
}

/**
 * Decides what a workspace form starts with, and keeps it decided (sessionReducer). The page's
 * inputs (the draft, a waiting load request, the source) are synced during render, as React's
 * "storing information from previous renders" pattern does, so the form never flashes blank
 * before its draft; the effects only write the decision back to storage and settle the request.
 */
export function useWorkspaceSession<V>(options: WorkspaceSessionOptions<V>): WorkspaceSession<V> {
  const { kind, clientOrgId, form, normalize, blank, fromWire, source, accepts } = options;
  const draft = draftStore(kind, clientOrgId, form);
  const pending = usePendingLoad(kind, clientOrgId);
  const load = pending && (!accepts || accepts(pending.wire)) ? pending : undefined;

  const readDraft = (): StoredValues<V> | null => {
    const stored = draft.get();
    return stored
      ? { values: normalize(stored.values), origin: stored.origin, dirty: stored.dirty }
      : null;
  };

  const [state, dispatch] = useReducer(
    sessionReducer<V>,
    initialSession as SessionState<V>, // the empty session holds no values of any form
  );

  const sync: SessionEvent<V> = {
    type: 'sync',
    load:
      load && load.token !== state.handledLoad
        ? {
            token: load.token,
            incoming: {
              origin: load.origin,
              values: fromWire(load.wire, loadedOf(load.origin)),
              label: load.label,
            },
          }
        : null,
    source: source
      ? {
          origin: source.origin,
          incoming:
            source.values === undefined
              ? null
              : { origin: source.origin, values: source.values, label: source.label },
        }
      : null,
    stored: state.start && !load && (state.sourceSeen || !source) ? null : readDraft(),
    blank,
  };
  const next = sessionReducer(state, sync);
  if (next !== state) dispatch(sync);

  const start = next.start;
  const handledLoad = next.handledLoad;

  // The request is done with once handled.
  useEffect(() => {
    if (handledLoad !== null) settleLoad(kind, clientOrgId, handledLoad);
  }, [handledLoad, kind, clientOrgId]);

  // A form started from something (not restored) is saved at once, so a reload right after keeps
  // what was loaded and where it came from; a fresh blank form has no draft.
  const startKey = start?.key;
  useEffect(() => {
    if (!start || start.restored) return;
    if (start.origin.type === 'blank') draft.remove();
    else
      draft.set({
        values: start.values,
        origin: start.origin,
        dirty: false,
        savedAt: new Date().toISOString(),
      });
    // Runs once per start (its key), not when the same start is re-rendered.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startKey, draft]);

  const replaceWithIncoming = () => dispatch({ type: 'replace-with-incoming' });
  const keepCurrent = () => dispatch({ type: 'keep-current' });
  const restart = (incoming?: Incoming<V>) =>
    dispatch({ type: 'restart', next: incoming ?? blank });

  return { start, ask: next.ask, replaceWithIncoming, keepCurrent, restart, draft };
}

/**
 * Saves the form's values to its draft as the user types (debounced), and at once when the page
 * is hidden or closed, so a reload, a crash or a closed tab loses nothing. The draft is marked
 * dirty when the values differ from what the form started with.
 */
export function useDraftAutosave<V extends FieldValues>(
  form: UseFormReturn<V>,
  draft: LocalStore<StoredDraft | null>,
  start: Start<V>,
): { discardPending(): void } {
  const save = useMemo(
    () =>
      // The values are read (and copied) when the save runs, not at every keystroke: a copy of
      // the whole form per key cost more than the key's own validation.
      debounce(() => {
        const values = structuredClone(form.getValues());
        const dirty = start.restored || !sameValues(values, start.values);
        if (!dirty && start.origin.type === 'blank') {
          draft.remove();
          return;
        }
        draft.set({ values, origin: start.origin, dirty, savedAt: new Date().toISOString() });
      }, draftSaveDelayMs),
    [draft, start, form],
  );

  useEffect(() => {
    const unsubscribe = form.subscribe({
      formState: { values: true },
      callback: () => save(),
    });
    const flush = () => save.flush();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') save.flush();
    };
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', onVisibility);
      save.flush();
    };
  }, [form, save]);

  return useMemo(() => ({ discardPending: () => save.cancel() }), [save]);
}

/** The draft's saved time, for the "Draft restored" note. */
export function useDraft(draft: LocalStore<StoredDraft | null>): StoredDraft | null {
  return useLocalStore(draft);
}
