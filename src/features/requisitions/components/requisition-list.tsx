import type { ReactNode } from 'react';
import {
  startTransition,
  useCallback,
  useDeferredValue,
  useId,
  useMemo,
  useOptimistic,
} from 'react';
import { Link } from 'react-router';
import type { RequisitionRecord } from '@/domain';
import {
  notSubmittableText,
  optionLabel,
  recordNotSubmittable,
  reqStatuses,
  todayIso,
} from '@/domain';
import { clientOrgLabel } from '@/domain/portal-config';
import type { ListView } from '@/features/requisitions/model/list-view';
import {
  inListOrder,
  listRows,
  nextSort,
  readSort,
  readStatuses,
  sortParams,
  statusCounts,
  statusParam,
  toggleStatus,
  unreadableDateCount,
} from '@/features/requisitions/model/list-view';
import { errorMessage } from '@/shared/api/http';
import { useOrg, useOrgScope } from '@/shared/config/org-context';
import { countOf, groupDigits } from '@/shared/lib/format';
import {
  useFirstRequisitions,
  useRequisitionList,
  useRequisitionListWarning,
} from '@/shared/requisitions';
import { CheckboxField } from '@/shared/ui/checkbox';
import { useInPageShell } from '@/shared/ui/page-shell-context';
import { useAddressParams } from '@/shared/ui/use-address-params';
import { FilterForm, describeFilter, readFilter } from './requisition-filter';
import { RequisitionTable } from './requisition-table';
import { UnreadableDatesNotice } from './unreadable-dates-notice';

/**
 * The client's requisitions from the browser's copy (refreshed incrementally from GET
 * Requisitions), filtered as the API would (Req ID, created, updated), searched by title and
 * sorted, all locally and all kept in the address; each row can be amended or given a candidate.
 */
export function RequisitionList() {
  const { clientOrgId, vendorOrgId, config } = useOrg();
  const [params, update] = useAddressParams();
  const current = useMemo(
    (): ListView => ({
      filter: readFilter(params),
      search: params.get('q') ?? '',
      sort: readSort(params),
      statuses: readStatuses(params),
      onlySubmittable: params.get('submittable') === '1',
    }),
    [params],
  );
  const { filter, search, sort, statuses } = current;
  // The address changes in a transition: the box shows the user's choice at once (a controlled
  // checkbox would otherwise flip back until the transition ends).
  const [onlySubmittable, showOnlySubmittable] = useOptimistic(current.onlySubmittable);
  const dateFormat = config.dateFormat;
  const today = todayIso();
  const orgs = useOrgScope();
  const query = useRequisitionList(orgs);
  // Typing stays instant: the filtering of thousands of rows follows at lower priority.
  const view = useDeferredValue(current);
  // While a first load is taken in, its first records are shown where they are the start of the
  // rows to come (the list's own order): rows are then only ever added below, never moved.
  const first = useFirstRequisitions(orgs);
  const warning = useRequisitionListWarning(orgs);
  const partial = query.isPending && first && inListOrder(view.sort) ? first : null;
  const records = query.data ?? partial?.records;

  const rows = useMemo(
    () => listRows(records ?? [], view, { dateFormat, today }),
    [records, view, dateFormat, today],
  );
  const counts = useMemo(() => statusCounts(query.data ?? []), [query.data]);
  // Over the whole list, not the rows drawn, and once per list change: a search or a filter,
  // which draws the page again, keeps the count (the list may hold thousands of records).
  const unreadableDates = useMemo(() => unreadableDateCount(query.data ?? []), [query.data]);
  const notSubmittable = useCallback(
    (record: RequisitionRecord) => {
      const reasons = recordNotSubmittable(record, dateFormat, today);
      return reasons.length === 0 ? null : notSubmittableText(reasons);
    },
    [dateFormat, today],
  );

  return (
    <ListFrame
      refreshing={query.isFetching && !query.isPending}
      onRefresh={query.isFetching ? undefined : () => void query.refetch()}
      lead={
        <>
          Requisitions of client org {clientOrgLabel(config, clientOrgId)} as the VMS lists them for
          vendor {vendorOrgId}.
        </>
      }
      filterForm={
        <FilterForm
          key={filter ? describeFilter(filter) : 'none'}
          filter={filter}
          onApply={(next) => update({ field: next.field, op: next.operator, value: next.value })}
          onClear={() => update({ field: null, op: null, value: null })}
        />
      }
      search={search}
      onSearch={(q) => update({ q })}
      statuses={statuses}
      counts={counts}
      onStatus={(code) => update({ status: statusParam(toggleStatus(statuses, code)) })}
      onlySubmittable={onlySubmittable}
      onOnlySubmittable={(checked) => {
        startTransition(() => {
          showOnlySubmittable(checked);
          update({ submittable: checked ? '1' : null });
        });
      }}
      status={
        query.isPending
          ? partial
            ? `Loading requisitions… ${groupDigits(partial.records.length)} of ${countOf(partial.total, 'requisition', 'requisitions')} read so far.`
            : loadingText
          : query.data
            ? `${countOf(rows.length, 'requisition', 'requisitions')} shown${
                view.filter ? ` (filter: ${describeFilter(view.filter)})` : ''
              }${view.search.trim() ? `, titles containing “${view.search.trim()}”` : ''}${
                view.statuses.length > 0
                  ? `, status ${view.statuses.map((code) => optionLabel(reqStatuses, code) ?? code).join(' or ')}`
                  : ''
              }${view.onlySubmittable ? ', only those taking candidates' : ''}.`
            : null
      }
    >
      {warning === null ? null : (
        <div role="alert" className="notice notice--warning">
          <h2 className="notice__title">This VMS's list refresh cannot be trusted</h2>
          <p className="user-text">{warning}</p>
        </div>
      )}
      <UnreadableDatesNotice count={unreadableDates} />
      {query.isError ? (
        <div role="alert" className="notice notice--error">
          <h2 className="notice__title">The requisitions could not be loaded</h2>
          <p>{errorMessage(query.error)}</p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void query.refetch()}
          >
            Try again
          </button>
        </div>
      ) : null}

      {query.data && rows.length === 0 ? (
        <div className="empty-state">
          {query.data.length === 0 ? (
            <p>
              Client org {clientOrgId} has no requisitions yet.{' '}
              <Link to="/requisitions/new">Create one</Link>, or choose another client org above.
            </p>
          ) : view.statuses.length > 0 || view.onlySubmittable ? (
            <p>
              No requisition shown matches the status chips or “Only submittable”. Choose other
              statuses, or untick “Only submittable”, to see more.
            </p>
          ) : view.filter && !view.search.trim() ? (
            <p>
              No requisition matches the filter {describeFilter(view.filter)}. Change the filter, or
              clear it to see every requisition.
            </p>
          ) : (
            <p>
              No title contains “{view.search.trim()}”
              {view.filter ? ` among the requisitions matching ${describeFilter(view.filter)}` : ''}
              . Check the spelling, or clear the search to see all{' '}
              {countOf(query.data.length, 'requisition', 'requisitions')}.
            </p>
          )}
        </div>
      ) : null}

      {rows.length > 0 ? (
        <RequisitionTable
          rows={rows}
          notSubmittable={notSubmittable}
          sort={view.sort}
          onSort={(key) => update(sortParams(nextSort(sort, key)))}
        />
      ) : null}
    </ListFrame>
  );
}

const loadingText = 'Loading requisitions…';

/**
 * The list's frame: its heading and actions, the filter, the search, the status chips and the
 * line that says what is shown, with what is shown after it (`children`). The list draws it with
 * its data, its prerendered shell (RequisitionListShell) as it is while the list loads.
 */
function ListFrame({
  refreshing,
  onRefresh,
  lead,
  filterForm,
  search,
  onSearch,
  statuses,
  counts,
  onStatus,
  onlySubmittable,
  onOnlySubmittable,
  status,
  children,
}: {
  refreshing: boolean;
  /** Undefined while the list is being read. */
  onRefresh: (() => void) | undefined;
  lead: ReactNode;
  filterForm: ReactNode;
  search: string;
  onSearch(search: string): void;
  statuses: readonly string[];
  counts: ReadonlyMap<string, number>;
  onStatus(code: string): void;
  onlySubmittable: boolean;
  onOnlySubmittable(checked: boolean): void;
  status: ReactNode;
  children?: ReactNode;
}) {
  const searchId = useId();
  // The prerendered list's chips do nothing until the app's list replaces it: shown disabled.
  const inShell = useInPageShell();
  return (
    <div className="page">
      <div className="page__header">
        <h1>Requisitions</h1>
        <div className="button-row">
          <Link to="/requisitions/new" className="button">
            New requisition
          </Link>
          <Link to="/requisitions/import" className="button button--secondary">
            Import from a spreadsheet
          </Link>
          <button
            type="button"
            className="button button--secondary"
            disabled={!onRefresh}
            onClick={onRefresh}
          >
            {refreshing ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      <p className="page__lead">{lead}</p>

      {filterForm}
      <div className="field search">
        <label htmlFor={searchId} className="field__label">
          Search titles
        </label>
        <input
          id={searchId}
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
        />
      </div>

      <div className="list-chips">
        <div role="group" aria-label="Status" className="chips">
          <span className="chips__label" aria-hidden="true">
            Status
          </span>
          {reqStatuses.map((option) => (
            <button
              key={option.value}
              type="button"
              className="chip"
              disabled={inShell}
              aria-pressed={statuses.includes(option.value)}
              onClick={() => onStatus(option.value)}
            >
              {option.label} <span className="chip__count">{counts.get(option.value) ?? 0}</span>
            </button>
          ))}
        </div>
        <CheckboxField checked={onlySubmittable} onChange={onOnlySubmittable}>
          Only submittable (Open or Interview occurring, openings left, submittals not closed)
        </CheckboxField>
      </div>

      <div role="status" className="list-status">
        {status}
      </div>
      {children}
    </div>
  );
}

const noCounts: ReadonlyMap<string, number> = new Map();
const ignore = () => {};

/**
 * The list page's prerendered shell (decision 040): its frame as it is while the list loads, with
 * no filter, search or org (the address's query and the org are the browser's; the lead's line is
 * kept, empty, so nothing moves when it is filled in).
 */
export function RequisitionListShell() {
  return (
    <ListFrame
      refreshing={false}
      onRefresh={undefined}
      lead={'\u00a0'}
      filterForm={<FilterForm filter={null} onApply={ignore} onClear={ignore} />}
      search=""
      onSearch={ignore}
      statuses={[]}
      counts={noCounts}
      onStatus={ignore}
      onlySubmittable={false}
      onOnlySubmittable={ignore}
      status={loadingText}
    />
  );
}
