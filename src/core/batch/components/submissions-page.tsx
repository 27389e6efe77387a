import type { ReactNode } from 'react';
import { useState } from 'react';
import { countOf, formatDateTime } from '../../../shared/lib/format';
import { useSubmissions } from '../hooks/use-submissions';
import type { BatchKind } from '../model/batch-kind';
import type { Submission } from '../model/submissions-state';
import { describeOutcome } from '../model/submissions-state';
import { BatchResults } from './batch-results';

export interface SubmissionsPageProps {
  /** The payload kinds whose batches are listed. */
  kinds: readonly BatchKind[];
  /** Says where to start when nothing has been sent yet. */
  emptyHint: ReactNode;
}

function SubmissionCard({
  kind,
  submission,
  initiallyOpen,
}: {
  kind: BatchKind;
  submission: Submission;
  initiallyOpen: boolean;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  const regionId = `results-${submission.batchId}`;
  return (
    <li>
      <article className="submission" aria-labelledby={`${regionId}-title`}>
        <h2 id={`${regionId}-title`} className="submission__title">
          {countOf(submission.itemCount, kind.noun.one, kind.noun.many)} ·{' '}
          <time dateTime={submission.sentAt}>{formatDateTime(submission.sentAt)}</time>
        </h2>
        <dl className="facts">
          <div>
            <dt>Batch ID</dt>
            <dd>
              <code>{submission.batchId}</code>
            </dd>
          </div>
          <div>
            <dt>Client org</dt>
            <dd>{submission.clientOrgId}</dd>
          </div>
          <div>
            <dt>Outcome</dt>
            <dd>{describeOutcome(submission)}</dd>
          </div>
        </dl>
        {submission.itemsDropped ? (
          <p className="field__hint">
            The items of this batch were removed from browser storage to make room, so Fix is not
            available for it.
          </p>
        ) : null}
        <button
          type="button"
          className="button button--secondary button--small"
          aria-expanded={open}
          aria-controls={regionId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? 'Hide results' : 'Show results'}
        </button>
        <div id={regionId}>
          {open ? <BatchResults kind={kind} submission={submission} headingLevel={3} /> : null}
        </div>
      </article>
    </li>
  );
}

/**
 * Every batch sent from this browser, newest first (kept in browser storage), each with its
 * results; the newest is open. Generic over the payload kinds.
 */
export function SubmissionsPage({ kinds, emptyHint }: SubmissionsPageProps) {
  const submissions = useSubmissions();
  const byId = new Map(kinds.map((kind) => [kind.id, kind]));
  const shown = submissions.filter((submission) => byId.has(submission.kind));

  return (
    <div className="page">
      <h1>Submissions</h1>
      <p className="page__lead">
        Every batch the VMS accepted from this browser, newest first. Results are checked until
        every item is processed; use Fix on an item with an error to load it back into its form.
      </p>
      {shown.length === 0 ? (
        <div className="empty-state">
          <p>No batches have been sent from this browser yet.</p>
          {emptyHint}
        </div>
      ) : (
        <ul className="submission-list">
          {shown.map((submission, index) => {
            const kind = byId.get(submission.kind);
            return kind ? (
              <SubmissionCard
                key={submission.batchId}
                kind={kind}
                submission={submission}
                initiallyOpen={index === 0}
              />
            ) : null;
          })}
        </ul>
      )}
    </div>
  );
}
