import type { DateFormat } from './catalog-types';

/**
 * DATE values: the outbound format is a setting of the VMS's profile (VMS_DATE_FORMAT for the
 * one-connection shorthand), default YYYY-MM-DD; MM/DD/YYYY and DD/MM/YYYY are the others. The
 * browser's native date inputs give ISO YYYY-MM-DD.
 */
const patterns: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^\d{4}-\d{2}-\d{2}$/,
  'MM/DD/YYYY': /^\d{2}\/\d{2}\/\d{4}$/,
  'DD/MM/YYYY': /^\d{2}\/\d{2}\/\d{4}$/,
};

/** The number written by the ASCII digits text[from..to). */
function digits(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i += 1) value = value * 10 + text.charCodeAt(i) - 48;
  return value;
}

const daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Proleptic Gregorian, as `Date` counts (years 1–99 fall the same there as 1901–1999). */
function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : (daysInMonth[month - 1] ?? 0));
}

/**
 * A wire DATE in `format` → ISO `YYYY-MM-DD`, or null when malformed or impossible (2026-02-30).
 * Called several times per item by the validator, so it reads the digits in place rather than
 * through match groups and `Date` objects.
 */
export function parseWireDate(value: string, format: DateFormat): string | null {
  if (!patterns[format].test(value)) return null;
  const iso =
    format === 'YYYY-MM-DD'
      ? value
      : format === 'MM/DD/YYYY'
        ? `${value.slice(6, 10)}-${value.slice(0, 2)}-${value.slice(3, 5)}`
        : `${value.slice(6, 10)}-${value.slice(3, 5)}-${value.slice(0, 2)}`;
  return isRealDate(digits(iso, 0, 4), digits(iso, 5, 7), digits(iso, 8, 10)) ? iso : null;
}

/** ISO `YYYY-MM-DD` → wire DATE in `format`. A value that is not a real ISO date passes unchanged. */
export function formatWireDate(iso: string, format: DateFormat): string {
  if (parseWireDate(iso, 'YYYY-MM-DD') === null) return iso;
  if (format === 'YYYY-MM-DD') return iso;
  const [year, month, day] = iso.split('-');
  return format === 'MM/DD/YYYY' ? `${month}/${day}/${year}` : `${day}/${month}/${year}`;
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
