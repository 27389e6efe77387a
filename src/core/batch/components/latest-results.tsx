import { useState } from 'react';
import type { BatchKind } from '../model/batch-kind';
import type { Submission } from '../model/submissions-state';
import { BatchResults } from './batch-results';

/**
 * The results of the batch just sent, in the main column above the form, where every row's
 * status, id, message and Fix have room (the batch panel keeps a summary and a link here).
 */
export function LatestResults({ kind, submission }: { kind: BatchKind; submission: Submission }) {
  const [hidden, setHidden] = useState<string | null>(null);
  if (hidden === submission.batchId) return null;
  return (
    <section className="latest-results" aria-label="Batch just sent">
      <BatchResults kind={kind} submission={submission} headingLevel={2} />
      <button type="button" className="link-button" onClick={() => setHidden(submission.batchId)}>
        Hide these results
      </button>
    </section>
  );
}
