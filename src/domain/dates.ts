import type { DateFormat } from './catalog-types';
import { readDate, writeDate } from './date-patterns';

/**
 * DATE values: the outbound format is a setting of the VMS's profile (VMS_DATE_FORMAT for the
 * one-connection shorthand), default YYYY-MM-DD: any date pattern (date-patterns.ts), such as
 * MM/DD/YYYY, DD/MM/YYYY or DD.MM.YYYY. The browser's native date inputs give ISO YYYY-MM-DD.
 */

/**
 * A wire DATE in `format` → ISO `YYYY-MM-DD`, or null when malformed or impossible (2026-02-30).
 * Called several times per item by the validator: the pattern is compiled once, and read with
 * one regular expression.
 */
export function parseWireDate(value: string, format: DateFormat): string | null {
  return readDate(value, format);
}

/** ISO `YYYY-MM-DD` → wire DATE in `format`. A value that is not a real ISO date passes unchanged. */
export function formatWireDate(iso: string, format: DateFormat): string {
  return writeDate(iso, format) ?? iso;
}

/** Wire DATE → ISO for a native date input; a value that does not parse passes unchanged. */
export function wireDateToIso(value: string, format: DateFormat): string {
  return parseWireDate(value, format) ?? value;
}

export function dateFormatExample(format: DateFormat): string {
  return formatWireDate('2026-03-31', format);
}

/** A wire DATE from one format to another; a value that does not read in `from` passes unchanged. */
export function convertWireDate(value: string, from: DateFormat, to: DateFormat): string {
  if (from === to) return value;
  const iso = parseWireDate(value, from);
  return iso === null ? value : formatWireDate(iso, to);
}
