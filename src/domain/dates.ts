import type { DateFormat } from './catalog-types';

/**
 * DATE values (decisions.md, "Wire format"): the outbound format is VMS_DATE_FORMAT, default
 * YYYY-MM-DD, MM/DD/YYYY the other. The browser's native date inputs give ISO YYYY-MM-DD.
 */
const patterns: Record<DateFormat, RegExp> = {
  'YYYY-MM-DD': /^(\d{4})-(\d{2})-(\d{2})$/,
  'MM/DD/YYYY': /^(\d{2})\/(\d{2})\/(\d{4})$/,
};

function isRealDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A wire DATE in `format` → ISO `YYYY-MM-DD`, or null when malformed or impossible (2026-02-30). */
export function parseWireDate(value: string, format: DateFormat): string | null {
  const match = patterns[format].exec(value);
  if (!match) return null;
  const [year, month, day] =
    format === 'YYYY-MM-DD'
      ? [Number(match[1]), Number(match[2]), Number(match[3])]
      : [Number(match[3]), Number(match[1]), Number(match[2])];
  if (!isRealDate(year, month, day)) return null;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** ISO `YYYY-MM-DD` → wire DATE in `format`. A value that is not a real ISO date passes unchanged. */
export function formatWireDate(iso: string, format: DateFormat): string {
  if (parseWireDate(iso, 'YYYY-MM-DD') === null) return iso;
  if (format === 'YYYY-MM-DD') return iso;
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

/** Wire DATE → ISO for a native date input; a value that does not parse passes unchanged. */
export function wireDateToIso(value: string, format: DateFormat): string {
  return parseWireDate(value, format) ?? value;
}

export function dateFormatExample(format: DateFormat): string {
  return format === 'YYYY-MM-DD' ? '2026-03-31' : '03/31/2026';
}
