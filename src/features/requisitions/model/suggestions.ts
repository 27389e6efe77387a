import { z } from 'zod';
import type { RequisitionRecord, RequisitionWire } from '@/domain';
import { requisitionCatalog, requisitionField } from '@/domain';
import type { LocalStore } from '@/shared/storage/local-store';
import { localStore, storageKey } from '@/shared/storage/local-store';

/**
 * Values offered as suggestions (a `<datalist>`, never required): ids, codes and names a
 * recruiter types again and again. They come from what this browser added to batches before and
 * from the requisitions the VMS lists for the client.
 */
export const suggestedKeys: readonly string[] = [
  ...new Set(
    requisitionCatalog.filter((def) => def.suggest).map((def) => def.row?.part ?? def.key),
  ),
];
export type SuggestedKey = string;

const suggestedSet: ReadonlySet<string> = new Set(suggestedKeys);

/** expertiserating3 → expertiserating: one list serves every skill row. */
export function suggestionKeyOf(wireKey: string): SuggestedKey | undefined {
  const def = requisitionField(wireKey);
  const key = def?.row?.part ?? wireKey;
  return suggestedSet.has(key) ? key : undefined;
}

export function datalistId(key: SuggestedKey): string {
  return `suggest-${key}`;
}

export type Suggestions = Partial<Record<SuggestedKey, string[]>>;

/** Most values kept per field. */
export const MAX_REMEMBERED = 15;

/**
 * Most values offered per field from the listed requisitions. A list of thousands helps nobody,
 * and Chromium copies the options of every `list=` input on each keystroke (decision 022).
 */
export const MAX_LISTED = 50;

const empty: Suggestions = {};
const suggestionsSchema: z.ZodType<Suggestions> = z.partialRecord(
  z.enum(suggestedKeys),
  z.array(z.string()),
);

export function typedValuesStore(clientOrgId: number): LocalStore<Suggestions> {
  return localStore(
    storageKey('suggestions', 'requisition', clientOrgId),
    suggestionsSchema,
    empty,
  );
}

/** Adds the item's values in front of what was remembered (most recent first, no repeats). */
export function rememberValues(current: Suggestions, wire: Partial<RequisitionWire>): Suggestions {
  const next: Suggestions = { ...current };
  for (const [wireKey, raw] of Object.entries(wire)) {
    const key = suggestionKeyOf(wireKey);
    const value = raw?.trim() ?? '';
    if (!key || value === '') continue;
    const list = next[key] ?? [];
    next[key] = [value, ...list.filter((other) => other !== value)].slice(0, MAX_REMEMBERED);
  }
  return next;
}

/**
 * The values each suggested field has across the listed requisitions, most common first, at most
 * `MAX_LISTED` of them.
 */
export function valuesFromRecords(records: readonly RequisitionRecord[]): Suggestions {
  const counts = new Map<SuggestedKey, Map<string, number>>();
  for (const record of records) {
    for (const [wireKey, raw] of Object.entries(record.fields)) {
      const key = suggestionKeyOf(wireKey);
      const value = raw.trim();
      if (!key || value === '') continue;
      const values = counts.get(key) ?? new Map<string, number>();
      values.set(value, (values.get(value) ?? 0) + 1);
      counts.set(key, values);
    }
  }
  const result: Suggestions = {};
  for (const [key, values] of counts) {
    result[key] = [...values.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_LISTED)
      .map(([value]) => value);
  }
  return result;
}

/** Typed values first, then the list's, without repeats. */
export function mergeSuggestions(...sources: Suggestions[]): Suggestions {
  const merged: Suggestions = {};
  for (const key of suggestedKeys) {
    const values = new Set<string>();
    for (const source of sources) for (const value of source[key] ?? []) values.add(value);
    if (values.size > 0) merged[key] = [...values];
  }
  return merged;
}
