import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { batchResultsQueryOptions } from '@/core/batch/api/batch-results';
import { useLoadIntoForm } from '@/core/batch/hooks/use-load-into-form';
import { recordFinalOutcome, useSubmissions } from '@/core/batch/hooks/use-submissions';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { describeMessage } from '@/core/batch/model/result-fields';
import { isSettled } from '@/core/batch/model/results-polling';
import type { ResultsSummary } from '@/core/batch/model/results-summary';
import { summarizeResults } from '@/core/batch/model/results-summary';
import type { Submission } from '@/core/batch/model/submissions-state';
import { resentRows } from '@/core/batch/model/submissions-state';
import type { Outcome } from '@/core/batch/model/submissions-view';
import { resendsOf } from '@/core/batch/model/submissions-view';
import { countStatuses } from '@/domain/batch-results';
import { errorMessage } from '@/shared/api/http';
import { countOf, prettyJson } from '@/shared/lib/format';
import { CodeBlock } from '@/shared/ui/code-block';
import { StatusBadge } from '@/shared/ui/status-badge';
import { FixAllFailed } from './fix-all-failed';
import { WatchNote } from './watch-note';

export interface BatchResultsProps {
  kind: BatchKind;
  submission: Submission;
  headingLevel?: 2 | 3;
}

// Batches whose final outcome this page has recorded: the full view and the panel's summary of
// the same batch both watch it, and the lists are refreshed once, not once per view.
const recorded = new Set<string>();

/** A batch's result rows, polled until settled; once settled, the outcome is recorded. */
function useBatchResults(kind: BatchKind, submission: Submission) {
  const orgs = { clientOrgId: submission.clientOrgId, vendorOrgId: submission.vendorOrgId };
  const query = useQuery(
    batchResultsQueryOptions(kind, orgs, submission.batchId, submission.connection),
  );
  const queryClient = useQueryClient();
  const rows = query.data?.rows ?? undefined;
  const settled = rows !== undefined && isSettled(rows);
  const watch = query.data?.watch ?? null;

  useEffect(() => {
    if (!rows || !settled || recorded.has(submission.batchId)) return;
    recorded.add(submission.batchId);
    recordFinalOutcome(submission.batchId, countStatuses(rows));
    // What the batch created or changed shows at once in the lists.
    if (kind.affects) void queryClient.invalidateQueries({ queryKey: kind.affects });
  }, [rows, settled, submission.batchId, kind.affects, queryClient]);

  return {
    query,
    rows,
    raw: query.data?.raw ?? undefined,
    settled,
    watch,
    // A watch that gave up checks no more: its pending rows are not "checked again shortly".
    checking: !settled && watch?.state !== 'gave_up',
    summary: rows ? summarizeResults(rows) : null,
  };
}

/**
 * A batch's results, row by row, polled until nothing is Pending: Success with the created id,
 * or Error with the VMS's message and Fix, which loads that item back into its form.
 */
/** Rows (read) or Raw (the VMS's answer as received): two tabs, arrow keys move between them. */
function ResultsTabs({
  id,
  view,
  onChange,
}: {
  id: string;
  view: 'rows' | 'raw';
  onChange(view: 'rows' | 'raw'): void;
}) {
  const tabs = [
    { value: 'rows', label: 'Rows' },
    { value: 'raw', label: 'Raw' },
  ] as const;
  return (
    <div role="tablist" aria-label="Show the results as" className="results__tabs">
      {tabs.map((tab) => (
        <button
          key={tab.value}
          type="button"
          role="tab"
          id={`${id}-tab-${tab.value}`}
          aria-selected={view === tab.value}
          aria-controls={`${id}-${tab.value}`}
          tabIndex={view === tab.value ? 0 : -1}
          className="results__tab"
          onClick={() => onChange(tab.value)}
          onKeyDown={(event) => {
            if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
            event.preventDefault();
            const next = view === 'rows' ? 'raw' : 'rows';
            onChange(next);
            document.getElementById(`${id}-tab-${next}`)?.focus();
          }}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** How the batch that sent rows again went, in a sentence's words. */
const resendOutcomeWords: Record<Outcome, string> = {
  succeeded: 'every item succeeded',
  attention: 'some items need attention',
  pending: 'results still coming',
};

export function BatchResults({ kind, submission, headingLevel = 2 }: BatchResultsProps) {
  const { query, rows, raw, settled, checking, watch, summary } = useBatchResults(kind, submission);
  const [view, setView] = useState<'rows' | 'raw'>('rows');
  const loadIntoForm = useLoadIntoForm(kind);
  const submissions = useSubmissions();
  // The whole history is searched: only when it changes, not at every poll of the results.
  const resent = useMemo(
    () => resentRows(submissions, submission.batchId),
    [submissions, submission.batchId],
  );
  const resends = useMemo(
    () => resendsOf(submissions, submission.batchId, new Map([[kind.id as string, kind]])),
    [submissions, submission.batchId, kind],
  );
  // Failed rows that can be sent again: their items are kept and no later batch resent them.
  const fixable = (rows ?? []).filter(
    (row) => row.failed && submission.items[row.row - 1] && !resent.has(row.row),
  );

  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <section
      className="results"
      id={resultsElementId(submission.batchId)}
      aria-labelledby={`${resultsElementId(submission.batchId)}-title`}
    >
      <Heading className="results__title" id={`${resultsElementId(submission.batchId)}-title`}>
        Results of batch <code>{submission.batchId}</code>
      </Heading>
      {submission.unchecked ? (
        <p className="notice notice--warning">
          Sent without local checks: items the portal found invalid went to the VMS as they were.
        </p>
      ) : null}
      <div role="status" className="results__progress">
        {query.isPending ? (
          'Reading the results…'
        ) : summary ? (
          <ResultsSummaryLine summary={summary} settled={settled} checking={checking} kind={kind} />
        ) : null}
        <WatchNote watch={watch} hasRows={rows !== undefined} />
        {resends.map((resend) => (
          <p key={resend.batchId} className="results__resent">
            {countOf(resend.rows, 'row', 'rows')} sent again in batch{' '}
            <Link to={`/submissions?batch=${encodeURIComponent(resend.batchId)}`}>
              {resend.batchId}
            </Link>
            : {resendOutcomeWords[resend.outcome]}.
          </p>
        ))}
      </div>
      {settled && fixable.length > 0 ? (
        <FixAllFailed kind={kind} submission={submission} rows={fixable} />
      ) : null}
      {query.isError ? (
        <div role="alert" className="notice notice--error">
          <p>
            The results could not be read: {errorMessage(query.error)}{' '}
            <button type="button" className="link-button" onClick={() => void query.refetch()}>
              Try again
            </button>
          </p>
        </div>
      ) : null}
      {raw !== undefined ? (
        <ResultsTabs id={resultsElementId(submission.batchId)} view={view} onChange={setView} />
      ) : null}
      {view === 'raw' && raw !== undefined ? (
        <div
          role="tabpanel"
          id={`${resultsElementId(submission.batchId)}-raw`}
          aria-labelledby={`${resultsElementId(submission.batchId)}-tab-raw`}
        >
          <p className="field__hint">The VMS’s last answer to GET results, exactly as received:</p>
          <CodeBlock label={`Raw results of batch ${submission.batchId}`} className="results__raw">
            {prettyJson(raw)}
          </CodeBlock>
        </div>
      ) : rows && rows.length > 0 ? (
        <div
          role="tabpanel"
          id={`${resultsElementId(submission.batchId)}-rows`}
          aria-labelledby={`${resultsElementId(submission.batchId)}-tab-rows`}
        >
          {/* A table to assistive technology, a grid of rows on a wide screen and a card per row
              on a narrow one: every row's status, id, message and Fix fit the width, nothing
              scrolls sideways. */}
          <div
            role="table"
            className="result-rows"
            aria-label={`Results of batch ${submission.batchId}`}
          >
            <div role="rowgroup" className="result-rows__head">
              <div role="row" className="result-row">
                <span role="columnheader">Row</span>
                <span role="columnheader">Item</span>
                <span role="columnheader">Status</span>
                <span role="columnheader">{kind.labels.createdId}</span>
                <span role="columnheader">Message</span>
                <span role="columnheader">
                  <span className="visually-hidden">Action</span>
                </span>
              </div>
            </div>
            <div role="rowgroup">
              {rows.map((row) => {
                const item = submission.items[row.row - 1];
                const described = item ? kind.summarize(item) : null;
                return (
                  <div role="row" className="result-row" key={row.row}>
                    <span role="cell" className="result-row__n">
                      <span className="result-row__label">Row </span>
                      {row.row}
                    </span>
                    <span role="cell" className="result-row__item">
                      {described ? (
                        <>
                          <span className="results__reference">
                            {described.reference || row.reference}
                          </span>{' '}
                          <span className="results__item-title">{described.title}</span>
                        </>
                      ) : (
                        row.reference
                      )}
                    </span>
                    <span role="cell" className="result-row__status">
                      <StatusBadge tone={row.tone}>{row.status}</StatusBadge>
                    </span>
                    <span role="cell" className="result-row__id">
                      <span className="result-row__label">{kind.labels.createdId} </span>
                      {row.createdId === '' ? (
                        '–'
                      ) : kind.createdIdPath ? (
                        <Link to={kind.createdIdPath(row.createdId)}>{row.createdId}</Link>
                      ) : (
                        row.createdId
                      )}
                    </span>
                    <span role="cell" className="results__message user-text">
                      {describeMessage(kind, row.message)}
                      {row.tone === 'warning' && kind.completeNote ? (
                        <span className="result-row__note">{kind.completeNote}</span>
                      ) : null}
                    </span>
                    <span role="cell" className="result-row__action">
                      {resent.has(row.row) ? (
                        <span className="result-row__resent">
                          Resent in batch{' '}
                          <Link
                            to={`/submissions?batch=${encodeURIComponent(resent.get(row.row) ?? '')}`}
                          >
                            <code>{resent.get(row.row)}</code>
                          </Link>
                        </span>
                      ) : row.failed && item ? (
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          aria-label={`Fix row ${row.row}`}
                          onClick={() =>
                            loadIntoForm(
                              {
                                origin: {
                                  type: 'result',
                                  batchId: submission.batchId,
                                  row: row.row,
                                  message: describeMessage(kind, row.message),
                                  loaded: submission.loaded?.[row.row - 1] ?? undefined,
                                },
                                wire: item,
                                label: `row ${row.row} of batch ${submission.batchId}`,
                              },
                              submission.clientOrgId,
                            )
                          }
                        >
                          Fix
                        </button>
                      ) : null}
                    </span>
                  </div>
                );
              })}
            </div>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/**
 * The batch panel's part of a sent batch: the counts and the progress, and a link to the rows
 * (shown in the main column, where they have room). Not a live region: the full view announces.
 */
export function BatchResultsSummary({
  kind,
  submission,
}: {
  kind: BatchKind;
  submission: Submission;
}) {
  const { query, settled, checking, watch, summary } = useBatchResults(kind, submission);
  return (
    <div className="results results--compact">
      <div className="results__progress">
        {query.isPending ? (
          <p>Reading the results…</p>
        ) : summary ? (
          <ResultsSummaryLine summary={summary} settled={settled} checking={checking} kind={kind} />
        ) : watch ? (
          <p>The portal is checking this batch at the VMS.</p>
        ) : (
          <p>The results could not be read; see below the form’s heading.</p>
        )}
      </div>
      <a href={`#${resultsElementId(submission.batchId)}`}>Each item’s result</a>
    </div>
  );
}

/** Where a batch's results are on the page, for links to them. */
export const resultsElementId = (batchId: string) => `results-of-${batchId}`;

/**
 * `3 Success · 1 Error · 496 Pending` as labelled chips, with a progress bar while any row is
 * Pending.
 */
export function ResultsSummaryLine({
  summary,
  settled,
  checking = !settled,
  kind,
}: {
  summary: ResultsSummary;
  settled: boolean;
  /** Someone still asks about the pending rows (false once the portal's watch gave up). */
  checking?: boolean;
  kind: BatchKind;
}) {
  return (
    <>
      <p className="results__counts">
        {settled
          ? `All ${countOf(summary.total, kind.noun.one, kind.noun.many)} processed: `
          : `${summary.done} of ${summary.total} processed: `}
        {summary.counts.map((entry, index) => (
          <span key={entry.status}>
            {index > 0 ? <span aria-hidden="true"> · </span> : null}
            <StatusBadge tone={entry.tone}>{`${entry.count} ${entry.status}`}</StatusBadge>
          </span>
        ))}
        {checking ? <span className="visually-hidden">; checking again shortly</span> : null}
      </p>
      {!checking ? null : (
        <progress
          className="results__bar"
          max={summary.total}
          value={summary.done}
          aria-label={`${summary.done} of ${summary.total} processed`}
        />
      )}
    </>
  );
}
