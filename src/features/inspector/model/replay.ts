import type { WireItem } from '@/core/batch/model/batch-kind';
import { trayElementOf } from '@/core/batch/model/raw-json';
import type { JournalBody, JournalDetail } from '@/domain/journal';
import { prettyJson } from '@/shared/lib/format';
import { groupDigits } from '@/shared/lib/format';

/**
 * What the inspector can do again with a recorded call: only a POST that
 * reached the VMS, whose body was kept whole and unredacted, can be sent again as it was.
 */
export function whyNotReplayable(entry: JournalDetail): string | null {
  if (entry.method !== 'POST') return 'Only a POST (a batch) can be sent again.';
  if (entry.outcome === 'refused')
    return 'The portal refused this call itself: nothing reached the VMS to send again.';
  const body = entry.requestBody;
  if (!body) return 'This call had no body to send again.';
  if (body.truncated)
    return `Its body (${groupDigits(body.size)} bytes) was kept only in part, so it cannot be sent again as it was.`;
  if (body.redacted)
    return 'A secret was cut out of its body when it was recorded, so it cannot be sent again as it was.';
  if (body.encoding !== 'utf8') return 'Its body is not text, so it cannot be sent again.';
  if (isMasked(body))
    return 'Its personal values are masked, so it cannot be sent again as it was: reveal the call first.';
  return null;
}

/** Shown with personal values masked (or withheld): not what was sent. */
export function isMasked(body: JournalBody): boolean {
  return (
    body.personal !== undefined &&
    (body.personal.masked > 0 || body.personal.reading === 'withheld')
  );
}

/** The recorded body's items, for the tray: objects of text values as wire items, others raw. */
export function replayElements(body: JournalBody): Array<{ wire: WireItem; raw?: unknown }> | null {
  let value: unknown;
  try {
    value = JSON.parse(body.text);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  return value.map(trayElementOf);
}

/** A body for reading: JSON indented, anything else as it is. */
export function prettyBody(body: JournalBody): string {
  if (body.encoding !== 'utf8') return `(${body.size} bytes, not text; base64:)\n${body.text}`;
  return prettyJson(body.text);
}
