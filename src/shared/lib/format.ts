import { readOwnDateTime } from '@/domain/date-patterns';

/**
 * `2026-11-21T19:31:00Z` → "21 Nov 2026, 19:31" in the user's time zone (with `seconds`,
 * "21 Nov 2026, 19:31:07", for calls made moments apart); other text unchanged. Only ISO 8601 with
 * Z or an offset is read: `new Date` would take `12/01/2026 09:00:00` for 1 December in the
 * browser's zone, whatever the VMS meant.
 */
export function formatDateTime(iso: string, { seconds = false } = {}): string {
  const utcMs = readOwnDateTime(iso);
  if (utcMs === null) return iso;
  return seconds
    ? dateTimeFormat('seconds', undefined, { second: '2-digit' }).format(utcMs)
    : dateTimeFormat('minutes', undefined, {}).format(utcMs);
}

/**
 * A record's created or last-updated time, `2026-11-21T09:30:00Z`, in the reader's time zone with
 * the zone named: "21 Nov 2026, 10:30 CET" in Berlin (en-GB). A VMS's records come from another
 * zone than the reader's, often another country's, so the time says which clock it is on.
 * `timeZone` and `locale` default to the browser's (tests name them). Other text unchanged.
 */
export function formatRecordDateTime(
  iso: string,
  { timeZone, locale }: { timeZone?: string; locale?: string } = {},
): string {
  const utcMs = readOwnDateTime(iso);
  if (utcMs === null) return iso;
  const zoned = dateTimeFormat(`zoned|${locale ?? ''}|${timeZone ?? ''}`, locale, {
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  });
  return zoned.format(utcMs);
}

/**
 * One formatter for each form (named by `key`), made when first used: `toLocaleString` with
 * options makes a new one on every call, a few milliseconds each on a slowed machine, for every
 * row a list draws. Every form shows the day, month, year, hours and minutes; `more` adds to it.
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(
  key: string,
  locale: string | undefined,
  more: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      ...more,
    });
    dateTimeFormats.set(key, format);
  }
  return format;
}

/**
 * 100000 → "100,000". Grouped by hand: the first `toLocaleString` of a page loads Intl's data,
 * 60–80 ms on a slowed phone, in the middle of drawing what it counts.
 */
export function groupDigits(value: number): string {
  const [whole = '', fraction] = String(value).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** "1 requisition", "3 requisitions", "1,200 requisitions". */
export function countOf(count: number, one: string, many: string): string {
  return `${groupDigits(count)} ${count === 1 ? one : many}`;
}

/** JSON text indented for reading; any other text as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
