import { z } from 'zod';
import type { FieldDef } from './catalog-types';

/*
 * Building blocks both form models (requisition, candidate) are made of. Their keys come from the
 * catalogs at run time, so `Object.fromEntries` cannot see them; these helpers are the one place
 * that names them back.
 */

/** The keys a form edits as plain fields: every catalog key outside a row group, custom fields included. */
export function scalarKeysOf<S extends string>(catalog: ReadonlyArray<FieldDef>): S[] {
  return catalog
    .filter((field) => field.row === undefined || field.row.group === 'customfields')
    .map((field) => field.key as S);
}

/** A zod shape of plain string fields, for scalar fields and row parts. */
export function stringFields<K extends string>(keys: readonly K[]): Record<K, z.ZodString> {
  return Object.fromEntries(keys.map((key) => [key, z.string()])) as Record<K, z.ZodString>;
}

/** Every key blank: the form's default values. */
export function blankStrings<K extends string>(keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, ''])) as Record<K, string>;
}
