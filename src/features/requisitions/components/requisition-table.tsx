import { memo } from 'react';
import { Link } from 'react-router';
import type { RequisitionRecord } from '@/domain';
import type { Sort, SortKey } from '@/features/requisitions/model/list-view';
import {
  dateTimeUnreadable,
  sortColumns,
  statusText,
} from '@/features/requisitions/model/list-view';
import { formatRecordDateTime } from '@/shared/lib/format';
import { useVirtualRows } from '@/shared/ui/use-virtual-rows';

/** An estimate for rows not yet measured; each drawn row is measured (long titles wrap). */
const estimatedRowPx = 49;

const unreadableNote =
  "Not a date and time the portal can read, so it is shown as the VMS wrote it: check the connection's profile (dates.dateTimes, dates.timeZone).";

/**
 * A record's date-time for people, on the reader's clock with the zone named (formatRecordDateTime).
 * One the profile could not read came through as the VMS wrote
 * it: it is shown so, marked, never read leniently into another date.
 */
export function RecordDateTime({ value }: { value: string }) {
  if (value === '') return '–';
  if (dateTimeUnreadable(value)) {
    return (
      <span title={unreadableNote}>
        <bdi className="user-text">{value}</bdi>{' '}
        <span role="img" aria-label={unreadableNote}>
          ⚠
        </span>
      </span>
    );
  }
  return <time dateTime={value}>{formatRecordDateTime(value)}</time>;
}

const RequisitionRow = memo(function RequisitionRow({
  record,
  index,
  measure,
  notSubmittable,
}: {
  record: RequisitionRecord;
  index: number;
  measure: (element: HTMLTableRowElement | null) => void;
  /** Why it takes no candidates now; null when it does. */
  notSubmittable: string | null;
}) {
  const reasonId = `not-submittable-${record.reqId}`;
  return (
    <tr ref={measure} data-index={index} aria-rowindex={index + 2}>
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
        <RecordDateTime value={record.updatedAt} />
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
          {notSubmittable ? (
            // Focusable, so keyboard and screen reader users reach the reason too.
            <button
              type="button"
              className="button button--secondary button--small"
              aria-disabled="true"
              aria-label={`Submit candidate to requisition ${record.reqId}`}
              aria-describedby={reasonId}
            >
              Submit candidate
            </button>
          ) : (
            <Link
              className="button button--secondary button--small"
              to={`/candidates?reqId=${record.reqId}`}
              aria-label={`Submit candidate to requisition ${record.reqId}`}
            >
              Submit candidate
            </Link>
          )}
        </div>
        {notSubmittable ? (
          <p id={reasonId} className="table__note">
            {notSubmittable}
          </p>
        ) : null}
      </td>
    </tr>
  );
});

/**
 * The requisitions as a table whose rows are drawn only while in view (TanStack Virtual), so
 * 10,000 requisitions cost the DOM what 30 do. The header stays on top while the body scrolls;
 * `aria-rowcount` / `aria-rowindex` tell assistive technology the table's real size.
 */
export function RequisitionTable({
  rows,
  sort,
  onSort,
  notSubmittable,
}: {
  rows: readonly RequisitionRecord[];
  sort: Sort;
  onSort(key: SortKey): void;
  /** Why a requisition takes no candidates now; null when it does. */
  notSubmittable(record: RequisitionRecord): string | null;
}) {
  const { scrollRef, drawn, measure, before, after } = useVirtualRows({
    rows,
    keyOf: (record) => record.reqId,
    estimatedPx: estimatedRowPx,
    overscan: 10,
  });

  return (
    <div
      ref={scrollRef}
      className="table-scroll table-scroll--list"
      role="region"
      aria-label="Requisitions"
      tabIndex={0}
    >
      <table className="table" aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {sortColumns.map((column) => {
              const sorted = sort.key === column.key ? sort.direction : undefined;
              return (
                <th key={column.key} scope="col" aria-sort={sorted ?? 'none'}>
                  <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
                    {column.label}
                    <span aria-hidden="true" className="sort-button__mark">
                      {sorted === 'ascending' ? '▲' : sorted === 'descending' ? '▼' : ''}
                    </span>
                  </button>
                </th>
              );
            })}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {before > 0 ? (
            <tr aria-hidden="true" className="table__spacer">
              <td colSpan={sortColumns.length + 1} style={{ height: before }} />
            </tr>
          ) : null}
          {drawn.map((item) => {
            const record = rows[item.index];
            return record ? (
              <RequisitionRow
                key={item.key}
                record={record}
                index={item.index}
                measure={measure}
                notSubmittable={notSubmittable(record)}
              />
            ) : null;
          })}
          {after > 0 ? (
            <tr aria-hidden="true" className="table__spacer">
              <td colSpan={sortColumns.length + 1} style={{ height: after }} />
            </tr>
          ) : null}
        </tbody>
      </table>
    </div>
  );
}
