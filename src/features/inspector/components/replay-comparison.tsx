import { useQuery } from '@tanstack/react-query';
import type { JournalDetail, JournalSummary } from '@/domain/journal';
import { journalEntryQueryOptions } from '@/features/inspector/api/journal';
import { compareBodies, type BodyComparison } from '@/features/inspector/model/compare';
import { statusText } from '@/features/inspector/model/status';
import { errorMessage } from '@/shared/api/http';

const marks = { same: ' ', added: '+', removed: '−' } as const;

/** One comparison: nothing to show, or the changed lines with a few around them. */
function Differences({ label, comparison }: { label: string; comparison: BodyComparison }) {
  if (comparison.kind === 'same') return <p className="field__hint">{label}: the same.</p>;
  if (comparison.kind === 'too-different') {
    return (
      <p className="field__hint">
        {label}: too different to compare line by line; open each call to read them.
      </p>
    );
  }
  return (
    <>
      <p className="inspector__diff-label">{label}:</p>
      <div className="inspector__diff" role="region" aria-label={label} tabIndex={0}>
        {comparison.hunks.map((hunk) => (
          <div key={`${hunk.original.start}-${hunk.replay.start}`}>
            <p className="inspector__diff-where">
              From line {hunk.original.start} of the original, line {hunk.replay.start} of the
              replay
            </p>
            {hunk.lines.map((line, index) => {
              const text = (
                <>
                  <span aria-hidden="true">{marks[line.kind]} </span>
                  {line.text}
                </>
              );
              // ins and del say "added" and "removed" to assistive technology, not only by colour.
              return line.kind === 'added' ? (
                <ins key={index} className="inspector__diff-line inspector__diff-line--added">
                  {text}
                </ins>
              ) : line.kind === 'removed' ? (
                <del key={index} className="inspector__diff-line inspector__diff-line--removed">
                  {text}
                </del>
              ) : (
                <span key={index} className="inspector__diff-line">
                  {text}
                </span>
              );
            })}
          </div>
        ))}
      </div>
    </>
  );
}

/** A call's last results poll in the journal (its batch's results as last read), if any. */
function lastResultsPoll(entry: JournalDetail): JournalSummary | undefined {
  return entry.related
    .filter((call) => call.method === 'GET' && call.operation?.endsWith('results'))
    .at(-1);
}

/**
 * A replay beside the call it re-sent: what was sent, what came back, and, for batches, the
 * results each batch got as last read, each as the lines that differ.
 */
export function ReplayComparison({ replay }: { replay: JournalDetail }) {
  const originalId = replay.replayOf ?? 0;
  const original = useQuery(journalEntryQueryOptions(originalId));
  const replayPoll = lastResultsPoll(replay);
  const originalPoll = original.data ? lastResultsPoll(original.data) : undefined;
  const replayResults = useQuery({
    ...journalEntryQueryOptions(replayPoll?.id ?? 0),
    enabled: replayPoll !== undefined,
  });
  const originalResults = useQuery({
    ...journalEntryQueryOptions(originalPoll?.id ?? 0),
    enabled: originalPoll !== undefined,
  });

  if (original.isPending) return <p aria-busy="true">Reading call #{originalId}…</p>;
  if (original.isError) {
    return (
      <p role="alert" className="notice notice--error">
        {errorMessage(original.error)}
      </p>
    );
  }
  const before = original.data;
  return (
    <section className="inspector__compare" aria-label="Compared with the original">
      <h3>
        Call #{replay.id} compared with its original, #{before.id}
      </h3>
      <p>
        Answered {statusText(before)} the first time, {statusText(replay)} this time.
      </p>
      <Differences
        label="Request bodies"
        comparison={compareBodies(before.requestBody, replay.requestBody)}
      />
      <Differences
        label="Answers"
        comparison={compareBodies(before.responseBody, replay.responseBody)}
      />
      {replayPoll && originalPoll ? (
        replayResults.data && originalResults.data ? (
          <Differences
            label="Results as last read"
            comparison={compareBodies(
              originalResults.data.responseBody,
              replayResults.data.responseBody,
            )}
          />
        ) : (
          <p aria-busy="true">Reading the results of both batches…</p>
        )
      ) : null}
    </section>
  );
}
