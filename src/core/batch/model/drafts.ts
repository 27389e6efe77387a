import { z } from 'zod';
import type { LoadedRecord } from '@/domain';
import { loadedRecordSchema } from '@/domain';

/**
 * A form draft: what the user has typed, saved to browser storage as they type (debounced), so
 * a reload, a crash or a closed tab loses nothing. One draft per payload kind, client org and
 * form (e.g. the Insert form and the Amend form each have theirs).
 */
export type DraftOrigin =
  /** A new, empty form. */
  | { type: 'blank' }
  /**
   * Prefilled from a record of the VMS, e.g. the requisition being amended. `loaded` is that
   * record as it was loaded (also on the other origins of an Amend): what is sent is measured
   * against it (decision 003).
   */
  | { type: 'record'; id: string; loaded?: LoadedRecord | undefined }
  /** A tray item being edited: "Update" replaces it. */
  | { type: 'tray-item'; itemId: string; loaded?: LoadedRecord | undefined }
  /** An item of a sent batch loaded back to be fixed and sent again, with the VMS's message. */
  | {
      type: 'result';
      batchId: string;
      row: number;
      message?: string | undefined;
      loaded?: LoadedRecord | undefined;
    };

export const draftOriginSchema: z.ZodType<DraftOrigin> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('blank') }),
  z.object({ type: z.literal('record'), id: z.string(), loaded: loadedRecordSchema.optional() }),
  z.object({
    type: z.literal('tray-item'),
    itemId: z.string(),
    loaded: loadedRecordSchema.optional(),
  }),
  z.object({
    type: z.literal('result'),
    batchId: z.string(),
    row: z.number().int(),
    message: z.string().optional(),
    loaded: loadedRecordSchema.optional(),
  }),
]);

/** The VMS record the form's Amend is measured against, if it was loaded from one. */
export function loadedOf(origin: DraftOrigin): LoadedRecord | undefined {
  return origin.type === 'blank' ? undefined : origin.loaded;
}

export interface StoredDraft {
  /** The form's values; read back through the form's normaliser. */
  values: unknown;
  origin: DraftOrigin;
  /** True once the user changed something since the form was started. */
  dirty: boolean;
  savedAt: string;
}

export const storedDraftSchema: z.ZodType<StoredDraft> = z.object({
  values: z.unknown(),
  origin: draftOriginSchema,
  dirty: z.boolean(),
  savedAt: z.string(),
});

export function sameOrigin(a: DraftOrigin, b: DraftOrigin): boolean {
  switch (a.type) {
    case 'blank':
      return b.type === 'blank';
    case 'record':
      return b.type === 'record' && a.id === b.id;
    case 'tray-item':
      return b.type === 'tray-item' && a.itemId === b.itemId;
    case 'result':
      return b.type === 'result' && a.batchId === b.batchId && a.row === b.row;
  }
}

/** Something to load into the form: a record to amend, a tray item to edit, a result to fix. */
export interface Incoming<V> {
  origin: DraftOrigin;
  values: V;
  /** Names it in the question before it replaces unsaved work: "item 2 of the batch". */
  label: string;
}

export interface Start<V> {
  values: V;
  origin: DraftOrigin;
  /** Started from a draft with changes: the page says "Draft restored". */
  restored: boolean;
}

export interface StartDecision<V> {
  start: Start<V>;
  /** Incoming work that would replace unsaved changes: the user is asked first. */
  ask: Incoming<V> | null;
}

/**
 * What the form starts with. A draft for the same origin wins (the user's latest typing); a
 * draft with changes is never silently replaced: the incoming values wait for the user's answer.
 */
export function decideStart<V>(
  draft: { values: V; origin: DraftOrigin; dirty: boolean } | null,
  incoming: Incoming<V> | null,
  blank: Incoming<V>,
): StartDecision<V> {
  if (draft && (!incoming || sameOrigin(draft.origin, incoming.origin) || draft.dirty)) {
    return {
      start: { values: draft.values, origin: draft.origin, restored: draft.dirty },
      ask: incoming && !sameOrigin(draft.origin, incoming.origin) ? incoming : null,
    };
  }
  const from = incoming ?? blank;
  return { start: { values: from.values, origin: from.origin, restored: false }, ask: null };
}

/**
 * `stored` read onto `template` (the form's defaults): every key of the template keeps its type;
 * strings are taken from storage when they are strings, arrays of rows row by row (each row read
 * onto the template's first row, or onto `rowTemplates[key]` when the default array is empty),
 * anything else keeps the default. A draft from an older version therefore still loads.
 */
export function mergeOntoTemplate<V>(
  template: V,
  stored: unknown,
  rowTemplates: Readonly<Record<string, unknown>> = {},
): V {
  return mergeValue(template, stored, rowTemplates, undefined) as V;
}

function mergeValue(
  template: unknown,
  stored: unknown,
  rowTemplates: Readonly<Record<string, unknown>>,
  key: string | undefined,
): unknown {
  if (typeof template === 'string') return typeof stored === 'string' ? stored : template;
  if (Array.isArray(template)) {
    const rowTemplate: unknown = template[0] ?? (key === undefined ? undefined : rowTemplates[key]);
    if (!Array.isArray(stored) || rowTemplate === undefined) return template;
    return stored.map((row: unknown) => mergeValue(rowTemplate, row, rowTemplates, undefined));
  }
  if (template && typeof template === 'object') {
    const source =
      stored && typeof stored === 'object' && !Array.isArray(stored)
        ? (stored as Record<string, unknown>)
        : {};
    return Object.fromEntries(
      Object.entries(template).map(([name, value]) => [
        name,
        mergeValue(value, source[name], rowTemplates, name),
      ]),
    );
  }
  return template;
}
