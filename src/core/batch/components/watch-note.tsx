import type { WatchProgress } from '@/core/batch/api/batch-results';

/** The sentence's first letter in capitals: the watch's words are written to follow a colon. */
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * What the portal's watch says beyond the rows: that it gave up (the rows stay as last read),
 * that it has no answer from the VMS yet, or why its last check told nothing.
 */
export function WatchNote({ watch, hasRows }: { watch: WatchProgress | null; hasRows: boolean }) {
  if (!watch) return null;
  if (watch.state === 'gave_up')
    return (
      <p className="results__watch">
        {sentence(watch.problem ?? 'still pending at the VMS')}: the portal stopped checking this
        batch. Look its items up in the VMS before sending any of them again.
      </p>
    );
  if (watch.state !== 'watching') return null;
  if (watch.problem)
    return (
      <p className="results__watch">
        The portal’s last check of this batch got no results ({watch.problem}); it checks again
        shortly.
      </p>
    );
  return hasRows ? null : (
    <p className="results__watch">
      The portal is checking this batch at the VMS; the results show here as soon as it answers.
    </p>
  );
}
