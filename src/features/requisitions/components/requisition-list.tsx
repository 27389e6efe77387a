import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { RequisitionRecord } from '../../../domain';
import { optionLabel, reqStatuses } from '../../../domain';
import { errorMessage } from '../../../shared/api/http';
import { useOrg } from '../../../shared/config/org-context';
import { countOf, formatDateTime } from '../../../shared/lib/format';
import { requisitionListQueryOptions } from '../api/requisitions';
import { FilterForm, describeFilter, readFilter } from './requisition-filter';

function statusText(record: RequisitionRecord): string {
  const value = record.fields.reqstatus;
  return optionLabel(reqStatuses, value) ?? (value === '' ? '–' : `Status ${value}`);
}

/**
 * The client's requisitions from GET Requisitions, filtered by the API (Req ID, created,
 * updated) and searched locally by title; each row can be amended or given a candidate.
 */
export function RequisitionList() {
  const { clientOrgId, vendorOrgId } = useOrg();
  const orgs = useMemo(() => ({ clientOrgId, vendorOrgId }), [clientOrgId, vendorOrgId]);
  const [params, setParams] = useSearchParams();
  const filter = readFilter(params);
  const search = params.get('q') ?? '';
  const deferredSearch = useDeferredValue(search);
  const query = useQuery(requisitionListQueryOptions(orgs, filter));
  const searchId = useId();

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );

  const rows = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    const records = query.data ?? [];
    return needle === ''
      ? records
      : records.filter((record) => record.fields.titlerole.toLowerCase().includes(needle));
  }, [query.data, deferredSearch]);

  return (
    <div className="page">
      <div className="page__header">
        <h1>Requisitions</h1>
        <div className="button-row">
          <Link to="/requisitions/new" className="button">
            New requisition
          </Link>
          <button
            type="button"
            className="button button--secondary"
            disabled={query.isFetching}
            onClick={() => void query.refetch()}
          >
            {query.isFetching && !query.isPending ? 'Refreshing…' : 'Refresh'}
          </button>
        </div>
      </div>
      <p className="page__lead">
        Requisitions of client org {clientOrgId} as the VMS lists them for vendor {vendorOrgId}.
      </p>

      <FilterForm
        key={filter ? describeFilter(filter) : 'none'}
        filter={filter}
        onApply={(next) => update({ field: next.field, op: next.operator, value: next.value })}
        onClear={() => update({ field: null, op: null, value: null })}
      />
      <div className="field search">
        <label htmlFor={searchId} className="field__label">
          Search titles
        </label>
        <input
          id={searchId}
          type="search"
          value={search}
          onChange={(event) => update({ q: event.target.value })}
        />
      </div>

      <div role="status" className="list-status">
        {query.isPending
          ? 'Loading requisitions…'
          : query.data
            ? `${countOf(rows.length, 'requisition', 'requisitions')} shown${
                filter ? ` (filter: ${describeFilter(filter)})` : ''
              }${search.trim() ? `, titles containing “${search.trim()}”` : ''}.`
            : null}
      </div>

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
          {query.data.length === 0 && filter ? (
            <p>
              No requisition matches the filter {describeFilter(filter)}. Change the filter, or
              clear it to see every requisition.
            </p>
          ) : query.data.length === 0 ? (
            <p>
              Client org {clientOrgId} has no requisitions yet.{' '}
              <Link to="/requisitions/new">Create one</Link>, or choose another client org above.
            </p>
          ) : (
            <p>
              No title contains “{search.trim()}”. Check the spelling, or clear the search to see
              all {countOf(query.data.length, 'requisition', 'requisitions')}.
            </p>
          )}
        </div>
      ) : null}

      {rows.length > 0 ? (
        <div className="table-scroll" role="region" aria-label="Requisitions" tabIndex={0}>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Req ID</th>
                <th scope="col">Client internal req</th>
                <th scope="col">Title</th>
                <th scope="col">Status</th>
                <th scope="col">Openings</th>
                <th scope="col">Start date</th>
                <th scope="col">Last updated</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((record) => (
                <tr key={record.reqId}>
                  <td>{record.reqId}</td>
                  <td>
                    <bdi className="user-text">{record.fields.clientinternalreq}</bdi>
                  </td>
                  <td>
                    <bdi className="user-text">{record.fields.titlerole}</bdi>
                  </td>
                  <td>{statusText(record)}</td>
                  <td>{record.fields.noofopenings}</td>
                  <td className="nowrap">{record.fields.startdate}</td>
                  <td>
                    {record.updatedAt ? (
                      <time dateTime={record.updatedAt}>{formatDateTime(record.updatedAt)}</time>
                    ) : (
                      '–'
                    )}
                  </td>
                  <td>
                    <div className="button-row button-row--compact button-row--nowrap">
                      <Link
                        className="button button--secondary button--small"
                        to={`/requisitions/amend/${record.reqId}`}
                        aria-label={`Amend requisition ${record.reqId}`}
                      >
                        Amend
                      </Link>
                      <Link
                        className="button button--secondary button--small"
                        to={`/candidates?reqId=${record.reqId}`}
                        aria-label={`Submit candidate to requisition ${record.reqId}`}
                      >
                        Submit candidate
                      </Link>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
