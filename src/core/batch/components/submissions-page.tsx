import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useEffect, useId, useState } from 'react';
import { batchResultsQueryOptions, batchWatchQueryOptions } from '@/core/batch/api/batch-results';
import { sentAfterBackupQueryOptions } from '@/core/batch/api/sent-after-backup';
import { recordFinalOutcome, useSubmissions } from '@/core/batch/hooks/use-submissions';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import type { ResultRow } from '@/core/batch/model/batch-kind';
import type { Submission } from '@/core/batch/model/submissions-state';
import { describeOutcome } from '@/core/batch/model/submissions-state';
import {
  filterSubmissions,
  outcomes,
  readSubmissionsView,
  submissionsCsv,
} from '@/core/batch/model/submissions-view';
import { countStatuses } from '@/domain/batch-results';
import { clientOrgLabel } from '@/domain/portal-config';
import type { SentAfterBackupBatch } from '@/domain/sent-after-backup';
import { useOrg } from '@/shared/config/org-context';
import { countOf, formatDateTime } from '@/shared/lib/format';
import { Disclosure } from '@/shared/ui/disclosure';
import { downloadText } from '@/shared/ui/json-actions';
import { OptionSelect, type Option } from '@/shared/ui/option-select';
import { useAddressParams } from '@/shared/ui/use-address-params';
import { BatchResults } from './batch-results';

export interface SubmissionsPageProps {
  /** The payload kinds whose batches are listed. */
  kinds: readonly BatchKind[];
  /** Says where to start when nothing has been sent yet. */
  emptyHint: ReactNode;
}

/**
 * A batch's outcome: as this browser recorded it, or else as the portal's watch knows it (read
 * once, never from the VMS), so a batch that settled while no page was open shows settled. A
 * settled watch's counts are recorded like a page's, for the outcome filter.
 */
function useOutcome(submission: Submission): string {
  const known = submission.finalCounts !== null;
  const watch = useQuery({
    ...batchWatchQueryOptions(submission.batchId, submission.connection),
    enabled: !known,
  }).data;
  const rows = watch?.state === 'settled' ? watch.results?.rows : undefined;
  useEffect(() => {
    if (rows && !known) recordFinalOutcome(submission.batchId, countStatuses(rows));
  }, [rows, known, submission.batchId]);
  if (!known && watch?.state === 'gave_up' && watch.problem) return `Accepted; ${watch.problem}`;
  return describeOutcome(submission);
}

function SubmissionCard({
  kind,
  submission,
  initiallyOpen,
  afterBackup,
}: {
  kind: BatchKind;
  submission: Submission;
  initiallyOpen: boolean;
  /** Set when the portal's last restore found this batch sent after its backup. */
  afterBackup: SentAfterBackupBatch | undefined;
}) {
  const { config } = useOrg();
  const outcome = useOutcome(submission);
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
            <dd>{clientOrgLabel(config, submission.clientOrgId)}</dd>
          </div>
          <div>
            <dt>Outcome</dt>
            <dd>{outcome}</dd>
          </div>
        </dl>
        {afterBackup ? (
          <div role="note" className="notice notice--warning">
            <p className="notice__title">
              Sent after the backup was taken: check the VMS before sending again.
            </p>
            <p>
              The portal was restored from a backup taken before this batch was sent, so it no
              longer has the VMS’s answer to it and will not send it again with its key. Look its{' '}
              {kind.noun.many} up in the VMS before sending any of them again, and send only what is
              missing, as a new batch.
            </p>
          </div>
        ) : null}
        {submission.itemsDropped ? (
          <p className="field__hint">
            The items of this batch were removed from browser storage to make room, so Fix is not
            available for it.
          </p>
        ) : null}
        <Disclosure
          className="button button--secondary button--small"
          id={regionId}
          initiallyOpen={initiallyOpen}
          label={(open) => (open ? 'Hide results' : 'Show results')}
        >
          {() => <BatchResults kind={kind} submission={submission} headingLevel={3} />}
        </Disclosure>
      </article>
    </li>
  );
}

/** The page's heading (its prerendered shell shows it too). */
export const submissionsHeading = 'Submissions';

/**
 * Every batch sent from this browser, newest first (kept in browser storage), each with its
 * results; the newest is open. Generic over the payload kinds.
 */
export function SubmissionsPage({ kinds, emptyHint }: SubmissionsPageProps) {
  const submissions = useSubmissions();
  const [params, update] = useAddressParams();
  const view = readSubmissionsView(params);
  const byId = new Map(kinds.map((kind) => [kind.id as string, kind]));
  const all = submissions.filter((submission) => byId.has(submission.kind));
  const shown = filterSubmissions(all, byId, view);
  const filtered = view.kind !== null || view.outcome !== null || view.batch.trim() !== '';
  const ids = { kind: useId(), outcome: useId(), batch: useId() };
  const queryClient = useQueryClient();
  const [exporting, setExporting] = useState<string | null>(null);
  // Without it (an older server, a failed read) the page shows no mark rather than no batches.
  const sentAfterBackup = useQuery(sentAfterBackupQueryOptions()).data ?? [];
  const afterBackupOf = (submission: Submission) =>
    sentAfterBackup.find(
      (batch) =>
        batch.batchId === submission.batchId &&
        (batch.connection === null ||
          submission.connection === undefined ||
          batch.connection === submission.connection),
    );

  // One line per item, with its result: each batch's results are read (final ones from what the
  // page already holds), one batch at a time so a long history does not flood the VMS.
  const exportCsv = async (list: readonly Submission[]) => {
    const results = new Map<string, readonly ResultRow[] | null>();
    for (const [index, submission] of list.entries()) {
      const kind = byId.get(submission.kind);
      if (!kind) continue;
      setExporting(`Reading the results of batch ${index + 1} of ${list.length}…`);
      const orgs = { clientOrgId: submission.clientOrgId, vendorOrgId: submission.vendorOrgId };
      const options = batchResultsQueryOptions(
        kind,
        orgs,
        submission.batchId,
        submission.connection,
      );
      // What the page holds is as new as it gets: asked again, a watched batch still being
      // processed would be a long poll, waiting for its next check.
      const answer =
        queryClient.getQueryData(options.queryKey) ??
        (await queryClient.fetchQuery(options).catch(() => null));
      results.set(submission.batchId, answer?.rows ?? null);
    }
    setExporting(null);
    downloadText(
      submissionsCsv(list, byId, results),
      `submissions-${new Date().toISOString().slice(0, 10)}.csv`,
      'text/csv',
    );
  };

  return (
    <div className="page">
      <h1>{submissionsHeading}</h1>
      <p className="page__lead">
        Every batch the VMS accepted from this browser, newest first. Results are checked until
        every item is processed; use Fix on an item with an error to load it back into its form.
      </p>
      {all.length === 0 ? (
        <div className="empty-state">
          <p>No batches have been sent from this browser yet.</p>
          {emptyHint}
        </div>
      ) : (
        <>
          <div className="filters">
            <ViewSelect
              id={ids.kind}
              label="Kind"
              value={view.kind ?? ''}
              options={[
                { value: '', label: 'All kinds' },
                ...kinds.map((kind) => ({ value: kind.id, label: kind.title })),
              ]}
              onChange={(kind) => update({ kind })}
            />
            <ViewSelect
              id={ids.outcome}
              label="Outcome"
              value={view.outcome ?? ''}
              options={[{ value: '', label: 'Any outcome' }, ...outcomes]}
              onChange={(outcome) => update({ outcome })}
            />
            <div className="field">
              <label htmlFor={ids.batch} className="field__label">
                Batch ID contains
              </label>
              <input
                id={ids.batch}
                type="search"
                autoComplete="off"
                value={view.batch}
                onChange={(event) => update({ batch: event.target.value })}
              />
            </div>
          </div>
          <div className="button-row">
            <p role="status" className="list-status">
              {filtered
                ? `${countOf(shown.length, 'batch', 'batches')} of ${all.length} shown.`
                : `${countOf(all.length, 'batch', 'batches')}.`}
            </p>
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={shown.length === 0 || exporting !== null}
              onClick={() => void exportCsv(shown)}
            >
              Export {filtered ? 'these' : 'all'} as CSV
            </button>
            {exporting ? (
              <span role="status" className="list-status">
                {exporting}
              </span>
            ) : null}
          </div>
          {shown.length === 0 ? (
            <div className="empty-state">
              <p>No batch matches. Change the kind, the outcome or the batch ID above.</p>
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
                    afterBackup={afterBackupOf(submission)}
                    // The newest is open; a search for one batch opens it.
                    initiallyOpen={index === 0 || (view.batch.trim() !== '' && shown.length === 1)}
                  />
                ) : null;
              })}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** One of the list's filters kept in the address: a labelled choice, '' for all. */
function ViewSelect({
  id,
  label,
  ...select
}: {
  id: string;
  label: string;
  value: string;
  options: readonly Option<string>[];
  onChange(value: string): void;
}) {
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <OptionSelect id={id} {...select} />
    </div>
  );
}
