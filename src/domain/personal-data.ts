import { candidateCatalog } from './candidate-catalog';
import type { FieldDef, PersonalKind } from './catalog-types';
import { requisitionCatalog } from './requisition-catalog';

/**
 * Personal data, known once: the catalogs mark each field that holds a value about a person
 * (`personal`), and everything that masks, finds, exports or erases such values reads the marks
 * here rather than a list of its own.
 */

/** Every personal field of a catalog, by its wire key, with the kind that decides its mask. */
export function personalFieldsOf(catalog: readonly FieldDef[]): ReadonlyMap<string, PersonalKind> {
  return new Map(
    catalog.flatMap((field) => (field.personal ? [[field.key, field.personal] as const] : [])),
  );
}

/** The personal fields of every payload the portal sends, by wire key. */
export const personalFields: ReadonlyMap<string, PersonalKind> = new Map([
  ...personalFieldsOf(requisitionCatalog),
  ...personalFieldsOf(candidateCatalog),
]);

/** The value an erased personal value becomes: says that something was there, and when it went. */
export function erasedPlaceholder(at: Date): string {
  return `[erased ${at.toISOString().slice(0, 10)}]`;
}

const erasedValue = /^\[erased \d{4}-\d\d-\d\d\]$/u;

const bullet = '•';

/** A word shown by its first letter: the rest is bullets, at least two. */
function initialOf(word: string): string {
  const [first = '', ...rest] = Array.from(word);
  return first + bullet.repeat(Math.max(2, rest.length));
}

/**
 * A personal value as shown to someone who may not see it: a name keeps the first letter of each
 * word (`J••• D••`), an e-mail the first letter of its mailbox and its domain
 * (`j•••@example.com`), anything else nothing of itself. A blank value stays blank: that nothing
 * was sent is not personal; nor is an erasure's placeholder, which shown masked would read as
 * someone's initials instead of saying the value was erased.
 */
export function maskPersonal(kind: PersonalKind, value: string): string {
  if (value.trim() === '' || erasedValue.test(value)) return value;
  switch (kind) {
    case 'name':
      return value.trim().split(/\s+/u).map(initialOf).join(' ');
    case 'email': {
      const at = value.lastIndexOf('@');
      if (at <= 0) return bullet.repeat(3);
      return `${Array.from(value)[0]}${bullet.repeat(3)}${value.slice(at)}`;
    }
    default:
      return bullet.repeat(3);
  }
}
