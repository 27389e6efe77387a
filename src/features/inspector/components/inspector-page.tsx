import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { journalStatusFilters, type JournalEntry } from '@/domain/journal';
import { suiteRunPath } from '@/domain/suite-run';
import { vmsOperations } from '@/domain/vms-contract';
import {
  filterQuery,
  journalFilterKeys,
  journalPagesQueryOptions,
} from '@/features/inspector/api/journal';
import { statusText, statusTone } from '@/features/inspector/model/status';
import { useMay } from '@/shared/session/session';
import { DataTable, type Column } from '@/shared/ui/data-table';
import { DateTime } from '@/shared/ui/date-time';
import { DownloadLink } from '@/shared/ui/download-link';
import {
  DateRange,
  FilterBar,
  FilterInput,
  FilterSelect,
  useAddressFilters,
} from '@/shared/ui/filter-bar';
import { ListSection } from '@/shared/ui/list-section';
import { PageHeader } from '@/shared/ui/page-header';
import { StatusBadge } from '@/shared/ui/status-badge';
import { useAddressParams } from '@/shared/ui/use-address-params';
import { ComposeCall } from './compose-call';
import { JournalDetailView } from './journal-detail';
import { RevealedExport } from './personal-reveal';

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
  const filterState = useAddressFilters(journalFilterKeys, ['id']);
  const { filters, anyFilter } = filterState;
  const openId = Number(params.get('id') ?? '');
  const query = useInfiniteQuery(journalPagesQueryOptions(filters));
  const entries = query.data?.pages.flatMap((page) => page.entries) ?? [];
  const formId = useId();
  const [composing, setComposing] = useState(false);
  const exportQuery = (format: 'har' | 'jsonl') =>
    `/api/journal/export?${filterQuery(filters, { format })}`;
  const mayReveal = useMay('qa');

  const columns: readonly Column<JournalEntry>[] = [
    { heading: 'Time', cell: (entry) => <DateTime at={entry.at} seconds /> },
    {
      heading: 'Call',
      cell: (entry) => (
        <>
          <button
            type="button"
            className="link-button"
            onClick={() => setParams({ id: String(entry.id) })}
          >
            {entry.method} {entry.operation ?? entry.path}
          </button>
          <CallFlags entry={entry} />
        </>
      ),
    },
    {
      heading: 'Status',
      cell: (entry) => <StatusBadge tone={statusTone(entry)}>{statusText(entry)}</StatusBadge>,
    },
    { heading: 'Items', cell: (entry) => entry.itemCount ?? '–' },
    { heading: 'Latency', cell: (entry) => `${Math.round(entry.latencyMs)} ms` },
  ];

  return (
    <div className="page inspector">
      <PageHeader heading={inspectorHeading}>
        <button
          type="button"
          className="button button--secondary"
          aria-expanded={composing}
          aria-controls={`${formId}-compose`}
          onClick={() => setComposing((open) => !open)}
        >
          Compose a call
        </button>
        <DownloadLink href={exportQuery('har')}>Export HAR</DownloadLink>
        <DownloadLink href={exportQuery('jsonl')}>Export JSON Lines</DownloadLink>
      </PageHeader>
      {mayReveal ? <RevealedExport filters={filters} /> : null}
      <p className="page__lead">
        Every call the portal made to the VMS for you, the latest started first, with what was sent
        and what came back. The API key, the secret and the signatures are never recorded.
      </p>

      <div id={`${formId}-compose`}>{composing ? <ComposeCall kinds={kinds} /> : null}</div>

      <FilterBar label="Filter the calls" submit="Show calls" state={filterState}>
        <FilterInput name="q" label="Words in the bodies" type="search" />
        <FilterSelect
          name="operation"
          label="Operation"
          options={vmsOperations.map(({ name }) => ({ value: name, label: name }))}
        />
        <FilterSelect
          name="method"
          label="Method"
          options={['GET', 'POST'].map((method) => ({ value: method, label: method }))}
        />
        <FilterSelect
          name="status"
          label="Status"
          options={journalStatusFilters.map((status) => ({ value: status, label: status }))}
        />
        <FilterInput name="org" label="Org" inputMode="numeric" />
        <FilterInput name="batch" label="Batch ID" />
        <FilterInput name="key" label="Idempotency key" />
        <FilterInput name="run" label="Suite run" inputMode="numeric" />
        <DateRange />
      </FilterBar>

      <div className="inspector__body">
        <ListSection
          heading="Calls"
          className="inspector__list"
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
          older="Show older calls"
        >
          <DataTable
            rows={entries}
            columns={columns}
            rowKey={(entry) => entry.id}
            isCurrent={(entry) => entry.id === openId}
          />
        </ListSection>
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

/** What else a call was: a replay, sent without the local checks, answered from memory, a run's. */
function CallFlags({ entry }: { entry: JournalEntry }) {
  return (
    <>
      {entry.replayOf ? (
        <span className="inspector__flag"> replay of #{entry.replayOf}</span>
      ) : null}
      {entry.unchecked ? <span className="inspector__flag"> without local checks</span> : null}
      {entry.replayed ? <span className="inspector__flag"> answered from memory</span> : null}
      {entry.suiteRun ? (
        <span className="inspector__flag">
          {' '}
          <Link to={suiteRunPath(entry.suiteRun)}>suite run #{entry.suiteRun}</Link>
        </span>
      ) : null}
    </>
  );
}
