import { useEffect, useRef, useState } from 'react';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import type { Submission } from '@/core/batch/model/submissions-state';
import { BatchResults } from './batch-results';

/** The next batch accepted is followed (LatestResults): set by a send from the bar. */
let followNext = false;

/** Asks that the results of the next batch accepted take the view and focus. */
export function followNextResults(): void {
  followNext = true;
}

const followed = new Set<string>();

/** Whether this batch's results are to be followed: once, by the first view of them. */
function takeFollowRequest(batchId: string): boolean {
  if (!followNext || followed.has(batchId)) return false;
  followNext = false;
  followed.add(batchId);
  return true;
}

/**
 * The results of the batch just sent, in the main column above the form, where every row's
 * status, id, message and Fix have room (the batch panel keeps a summary and a link here).
 */
export function LatestResults({ kind, submission }: { kind: BatchKind; submission: Submission }) {
  const [hidden, setHidden] = useState<string | null>(null);
  const sectionRef = useRef<HTMLElement>(null);
  // A batch sent from the bar at the foot of a phone's screen, far below: its results take the
  // view and focus, so the recruiter follows its progress instead of the form's end.
  useEffect(() => {
    if (!takeFollowRequest(submission.batchId)) return;
    const section = sectionRef.current;
    section?.scrollIntoView({ block: 'start' });
    section?.focus({ preventScroll: true });
  }, [submission.batchId]);
  if (hidden === submission.batchId) return null;
  return (
    <section className="latest-results" aria-label="Batch just sent" ref={sectionRef} tabIndex={-1}>
      <BatchResults kind={kind} submission={submission} headingLevel={2} />
      <button type="button" className="link-button" onClick={() => setHidden(submission.batchId)}>
        Hide these results
      </button>
    </section>
  );
}
