import { useInfiniteQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { journalStatusFilters } from '@/domain/journal';
import { suiteRunPath } from '@/domain/suite-run';
import { vmsOperations } from '@/domain/vms-contract';
import type { JournalFilters } from '@/features/inspector/api/journal';
import {
  filterQuery,
  journalFilterKeys,
  journalPagesQueryOptions,
} from '@/features/inspector/api/journal';
import { statusText, statusTone } from '@/features/inspector/model/status';
import { formatDateTime } from '@/shared/lib/format';
import { ListStatus } from '@/shared/ui/list-status';
import { StatusBadge } from '@/shared/ui/status-badge';
import { useAddressParams } from '@/shared/ui/use-address-params';
import { ComposeCall } from './compose-call';
import { JournalDetailView } from './journal-detail';

/** The page's heading (its prerendered shell shows it too). */
export const inspectorHeading = 'Inspector';

/**
 * /inspector: every call the portal made to the VMS, by when it started, filtered and
 * searched in the bodies, each opened in full, exported as HAR or JSON Lines, copied as cURL,
 * PowerShell or Node fetch, sent again and compared with its original; and any call composed
 * and sent from here. The secret never appears: the portal server records none of it.
 */
export function InspectorPage({ kinds }: { kinds: readonly BatchKind[] }) {
  const [params, setParams] = useAddressParams();
  const filters: JournalFilters = {};
  for (const key of journalFilterKeys) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const openId = Number(params.get('id') ?? '');
  const query = useInfiniteQuery(journalPagesQueryOptions(filters));
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const formId = useId();
  const [composing, setComposing] = useState(false);

  const onSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const changes: Record<string, string | null> = { id: null };
    for (const key of journalFilterKeys) changes[key] = String(data.get(key) ?? '');
    setParams(changes);
  };
  const exportQuery = (format: 'har' | 'jsonl') =>
    `/api/journal/export?${filterQuery(filters, { format })}`;
  const anyFilter = journalFilterKeys.some((key) => filters[key]);

  return (
    <div className="page inspector">
      <div className="page__header">
        <h1>{inspectorHeading}</h1>
        <div className="button-row">
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={composing}
            aria-controls={`${formId}-compose`}
            onClick={() => setComposing((open) => !open)}
          >
            Compose a call
          </button>
          <a className="button button--secondary" href={exportQuery('har')} download>
            Export HAR
          </a>
          <a className="button button--secondary" href={exportQuery('jsonl')} download>
            Export JSON Lines
          </a>
        </div>
      </div>
      <p className="page__lead">
        Every call the portal made to the VMS for you, the latest started first, with what was sent
        and what came back. The API key, the secret and the signatures are never recorded.
      </p>

      <div id={`${formId}-compose`}>{composing ? <ComposeCall kinds={kinds} /> : null}</div>

      <form
        className="inspector__filters"
        aria-label="Filter the calls"
        onSubmit={onSearch}
        key={params.toString()}
      >
        <label htmlFor={`${formId}-q`}>Words in the bodies</label>
        <input id={`${formId}-q`} name="q" type="search" defaultValue={filters.q ?? ''} />
        <label htmlFor={`${formId}-operation`}>Operation</label>
        <select id={`${formId}-operation`} name="operation" defaultValue={filters.operation ?? ''}>
          <option value="">Any</option>
          {vmsOperations.map((operation) => (
            <option key={operation.name} value={operation.name}>
              {operation.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${formId}-method`}>Method</label>
        <select id={`${formId}-method`} name="method" defaultValue={filters.method ?? ''}>
          <option value="">Any</option>
          <option value="GET">GET</option>
          <option value="POST">POST</option>
        </select>
        <label htmlFor={`${formId}-status`}>Status</label>
        <select id={`${formId}-status`} name="status" defaultValue={filters.status ?? ''}>
          <option value="">Any</option>
          {journalStatusFilters.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
        <label htmlFor={`${formId}-org`}>Org</label>
        <input
          id={`${formId}-org`}
          name="org"
          inputMode="numeric"
          defaultValue={filters.org ?? ''}
        />
        <label htmlFor={`${formId}-batch`}>Batch ID</label>
        <input id={`${formId}-batch`} name="batch" defaultValue={filters.batch ?? ''} />
        <label htmlFor={`${formId}-key`}>Idempotency key</label>
        <input id={`${formId}-key`} name="key" defaultValue={filters.key ?? ''} />
        <label htmlFor={`${formId}-run`}>Suite run</label>
        <input
          id={`${formId}-run`}
          name="run"
          inputMode="numeric"
          defaultValue={filters.run ?? ''}
        />
        <label htmlFor={`${formId}-from`}>From</label>
        <input id={`${formId}-from`} name="from" type="date" defaultValue={filters.from ?? ''} />
        <label htmlFor={`${formId}-to`}>To</label>
        <input id={`${formId}-to`} name="to" type="date" defaultValue={filters.to ?? ''} />
        <div className="button-row">
          <button type="submit" className="button">
            Show calls
          </button>
          {anyFilter ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() =>
                setParams(
                  Object.fromEntries([...journalFilterKeys, 'id'].map((key) => [key, null])),
                )
              }
            >
              Clear filters
            </button>
          ) : null}
        </div>
      </form>

      <div className="inspector__body">
        <section aria-labelledby={`${formId}-calls`} className="inspector__list">
          <h2 id={`${formId}-calls`}>Calls</h2>
          <ListStatus
            query={query}
            count={entries.length}
            one="call"
            many="calls"
            reading="Reading the journal…"
            empty={
              anyFilter
                ? 'No call matches these filters.'
                : 'No call recorded yet: send a batch or open a list, and it shows here.'
            }
          />
          {entries.length > 0 ? (
            <table className="inspector__table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Call</th>
                  <th scope="col">Status</th>
                  <th scope="col">Items</th>
                  <th scope="col">Latency</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id} aria-current={entry.id === openId ? 'true' : undefined}>
                    <td>
                      <time dateTime={entry.at}>{formatDateTime(entry.at, { seconds: true })}</time>
                    </td>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => setParams({ id: String(entry.id) })}
                      >
                        {entry.method} {entry.operation ?? entry.path}
                      </button>
                      {entry.replayOf ? (
                        <span className="inspector__flag"> replay of #{entry.replayOf}</span>
                      ) : null}
                      {entry.unchecked ? (
                        <span className="inspector__flag"> without local checks</span>
                      ) : null}
                      {entry.replayed ? (
                        <span className="inspector__flag"> answered from memory</span>
                      ) : null}
                      {entry.suiteRun ? (
                        <span className="inspector__flag">
                          {' '}
                          <Link to={suiteRunPath(entry.suiteRun)}>suite run #{entry.suiteRun}</Link>
                        </span>
                      ) : null}
                    </td>
                    <td>
                      <StatusBadge tone={statusTone(entry)}>{statusText(entry)}</StatusBadge>
                    </td>
                    <td>{entry.itemCount ?? '–'}</td>
                    <td>{Math.round(entry.latencyMs)} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {query.hasNextPage ? (
            <button
              type="button"
              className="button button--secondary"
              disabled={query.isFetchingNextPage}
              onClick={() => void query.fetchNextPage()}
            >
              {query.isFetchingNextPage ? 'Loading…' : 'Show older calls'}
            </button>
          ) : null}
        </section>
        {Number.isInteger(openId) && openId > 0 ? (
          <JournalDetailView
            id={openId}
            kinds={kinds}
            onOpen={(id) => setParams({ id: String(id) })}
            onFilterBatch={(batch) => setParams({ batch, id: null })}
          />
        ) : null}
      </div>
    </div>
  );
}
