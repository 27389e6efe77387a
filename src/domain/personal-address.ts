import { catalogFieldNames, personalKindOf } from './personal-body';
import { maskPersonal } from './personal-data';
import { requisitionFilterFields, requisitionFilterParams } from './vms-contract';

/**
 * Personal values in a call's address (decision 061): a query parameter named as a personal field
 * of the catalogs (`candemail=…`), and a filter's value when the field it is compared with is
 * personal. The parameters are read from the catalogs' marks and the contract's filter, never
 * from a list of their own. The path before `?` names an operation, a fixed word of the contract,
 * and is left as it is.
 */

/** One `name=value` of a query: as it was written, and as it reads. */
interface QueryPart {
  raw: string;
  name: string | null;
  value: string | null;
}

/** A query's part decoded (`+` is a space in a query); null where it is not valid percent-encoding. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/gu, ' '));
  } catch {
    return null;
  }
}

function partsOf(query: string): QueryPart[] {
  return query.split('&').map((raw) => {
    const equals = raw.indexOf('=');
    if (equals < 0) return { raw, name: decoded(raw), value: null };
    return { raw, name: decoded(raw.slice(0, equals)), value: decoded(raw.slice(equals + 1)) };
  });
}

/** A value written back into a query: encoded, but a mask's bullets left readable. */
function encoded(value: string): string {
  return encodeURIComponent(value).replace(/%E2%80%A2/gu, '•');
}

/** Applies `rewrite` to each value of the address's query; the rest is kept byte for byte. */
function rewriteQuery(
  address: string,
  rewrite: (part: QueryPart, parts: readonly QueryPart[]) => string | undefined,
): { text: string; changed: number } {
  const queryAt = address.indexOf('?');
  if (queryAt < 0) return { text: address, changed: 0 };
  const hashAt = address.indexOf('#', queryAt);
  const end = hashAt < 0 ? address.length : hashAt;
  const parts = partsOf(address.slice(queryAt + 1, end));
  let changed = 0;
  const written = parts.map((part) => {
    const value = rewrite(part, parts);
    if (value === undefined) return part.raw;
    changed += 1;
    const equals = part.raw.indexOf('=');
    return `${equals < 0 ? part.raw : part.raw.slice(0, equals)}=${encoded(value)}`;
  });
  return {
    text: `${address.slice(0, queryAt + 1)}${written.join('&')}${address.slice(end)}`,
    changed,
  };
}

const lower = (text: string | null) => (text ?? '').toLowerCase();

/** The contract's filter fields (`Req_Id`, dates): never personal. */
const filterFieldNames = new Set(requisitionFilterFields.map(({ value }) => value.toLowerCase()));

/**
 * What a parameter's value is: `personal` with its kind, or `plain`. A filter's value takes the
 * kind of the field it is compared with; a field that is neither the contract's nor a catalog
 * field not marked personal, or no field at all, counts as personal (free text), since what it
 * holds cannot be told.
 */
function readingOf(part: QueryPart, parts: readonly QueryPart[]) {
  if (part.name === null) return { kind: 'text' as const };
  const name = part.name.toLowerCase();
  if (name === requisitionFilterParams.value) {
    const field = lower(
      parts.find((other) => lower(other.name) === requisitionFilterParams.field)?.value ?? null,
    );
    const kind = personalKindOf(field);
    if (kind !== undefined) return { kind };
    if (filterFieldNames.has(field) || catalogFieldNames.has(field)) return undefined;
    return { kind: 'text' as const };
  }
  const kind = personalKindOf(name);
  return kind === undefined ? undefined : { kind };
}

/** An address with each personal value of its query masked, and how many were. */
export function maskPersonalAddress(address: string): { text: string; masked: number } {
  const { text, changed } = rewriteQuery(address, (part, parts) => {
    const personal = readingOf(part, parts);
    if (personal === undefined || part.value === null || part.value.trim() === '') return undefined;
    return maskPersonal(personal.kind, part.value);
  });
  return { text, masked: changed };
}

/** Every value of the address's query, decoded: what find reads for the person. */
export function addressValues(address: string): string[] {
  const queryAt = address.indexOf('?');
  if (queryAt < 0) return [];
  return partsOf(address.slice(queryAt + 1)).flatMap((part) =>
    part.value === null ? [] : [part.value],
  );
}

/**
 * The address with each query value `erase` changes written back encoded; `changed` is how many
 * it changed.
 */
export function rewriteAddressValues(
  address: string,
  erase: (value: string) => string | undefined,
): { text: string; changed: number } {
  return rewriteQuery(address, (part) => (part.value === null ? undefined : erase(part.value)));
}
