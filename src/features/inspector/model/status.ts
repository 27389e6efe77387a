import type { JournalSummary } from '@/domain/journal';
import type { Tone } from '@/shared/ui/status-badge';

/** A status's colour by its class; the text carries the meaning. */
export function statusTone(entry: JournalSummary): Tone {
  if (entry.outcome === 'refused' || entry.outcome === 'failed') return 'error';
  if (entry.status >= 500) return 'error';
  if (entry.status >= 400) return 'warning';
  if (entry.status >= 200 && entry.status < 300) return 'success';
  return 'neutral';
}

export function statusText(entry: JournalSummary): string {
  if (entry.outcome === 'refused') return `${entry.status} refused`;
  if (entry.outcome === 'failed') return `${entry.status} ${entry.failure ?? 'failed'}`;
  return String(entry.status);
}
