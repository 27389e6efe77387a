import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../shared/api/http';
import { countOf } from '../../../shared/lib/format';
import { StatusBadge } from '../../../shared/ui/status-badge';
import { batchResultsQueryOptions } from '../api/batch-results';
import { recordFinalOutcome } from '../hooks/use-submissions';
import { useLoadIntoForm } from '../hooks/use-load-into-form';
import type { BatchKind } from '../model/batch-kind';
import { isSettled } from '../model/results-polling';
import type { Submission } from '../model/submissions-state';
import { countStatuses } from '../model/submissions-state';

export interface BatchResultsProps {
  kind: BatchKind;
  submission: Submission;
  headingLevel?: 2 | 3;
}

/**
 * A batch's results, row by row, polled until nothing is Pending: Success with the created id,
 * or Error with the VMS's message and Fix, which loads that item back into its form.
 */
export function BatchResults({ kind, submission, headingLevel = 2 }: BatchResultsProps) {
  const orgs = { clientOrgId: submission.clientOrgId, vendorOrgId: submission.vendorOrgId };
  const query = useQuery(batchResultsQueryOptions(kind, orgs, submission.batchId));
  const loadIntoForm = useLoadIntoForm(kind);
  const queryClient = useQueryClient();
  const rows = query.data;
  const settled = rows !== undefined && isSettled(rows);

  useEffect(() => {
    if (!rows || !settled) return;
    recordFinalOutcome(submission.batchId, countStatuses(rows));
    // What the batch created or changed shows at once in the lists.
    if (kind.affects) void queryClient.invalidateQueries({ queryKey: kind.affects });
  }, [rows, settled, submission.batchId, kind.affects, queryClient]);

  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const done = rows?.filter((row) => !row.pending).length ?? 0;

  return (
    <div className="results">
      <Heading className="results__title">
        Results of batch <code>{submission.batchId}</code>
      </Heading>
      <p role="status" className="results__progress">
        {query.isPending
          ? 'Asking the VMS for the results…'
          : rows === undefined
            ? null
            : settled
              ? `All ${countOf(rows.length, kind.noun.one, kind.noun.many)} processed.`
              : `${done} of ${rows.length} processed; checking again shortly…`}
      </p>
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
      {rows && rows.length > 0 ? (
        <div
          className="table-scroll"
          role="region"
          aria-label={`Results of batch ${submission.batchId}`}
          tabIndex={0}
        >
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Item</th>
                <th scope="col">Status</th>
                <th scope="col">{kind.labels.createdId}</th>
                <th scope="col">Message</th>
                <th scope="col">
                  <span className="visually-hidden">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const item = submission.items[row.row - 1];
                const summary = item ? kind.summarize(item) : null;
                return (
                  <tr key={row.row}>
                    <td>{row.row}</td>
                    <td>
                      {summary ? (
                        <>
                          <span className="results__reference">
                            {summary.reference || row.reference}
                          </span>{' '}
                          <span className="results__item-title">{summary.title}</span>
                        </>
                      ) : (
                        row.reference
                      )}
                    </td>
                    <td>
                      <StatusBadge tone={row.tone}>{row.status}</StatusBadge>
                    </td>
                    <td>
                      {row.createdId === '' ? (
                        '–'
                      ) : kind.createdIdPath ? (
                        <Link to={kind.createdIdPath(row.createdId)}>{row.createdId}</Link>
                      ) : (
                        row.createdId
                      )}
                    </td>
                    <td className="results__message">{row.message}</td>
                    <td>
                      {row.failed && item ? (
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
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
