import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  notSubmittableText,
  optionLabel,
  recordNotSubmittable,
  reqStatuses,
  todayIso,
} from '@/domain';
import { matchesSearch } from '@/features/candidates/model/target-requisition';
import { useOrg, useOrgScope } from '@/shared/config/org-context';
import { countOf } from '@/shared/lib/format';
import { useRequisitionList } from '@/shared/requisitions';
import { CheckboxField } from '@/shared/ui/checkbox';
import { LoadFailure } from '@/shared/ui/load-failure';

const shownAtMost = 12;

const candidatesPath = (reqId: string) =>
  `/candidates?${new URLSearchParams({ reqId }).toString()}`;

/**
 * Choosing the requisition a candidate is submitted to: a search over the client's requisitions
 * (Req ID, title, client internal req). A Req ID the list does not know may still be used; the
 * form then says its skills and questions cannot be checked.
 */
export function RequisitionPicker() {
  const query = useRequisitionList(useOrgScope());
  const { config } = useOrg();
  const [search, setSearch] = useState('');
  // On by default: Filled, Closed, On Hold, full or past-deadline requisitions take no candidates.
  const [onlySubmittable, setOnlySubmittable] = useState(true);
  const searchId = useId();
  const hintId = useId();
  const typed = search.trim();
  const records = query.data ?? [];
  const today = todayIso();
  const found = records
    .filter((record) => matchesSearch(record, typed))
    .map((record) => ({
      record,
      reasons: recordNotSubmittable(record, config.dateFormat, today),
    }));
  const matches = onlySubmittable ? found.filter((entry) => entry.reasons.length === 0) : found;
  const hidden = found.length - matches.length;
  const knownId = records.some((record) => record.reqId === typed);

  return (
    <section className="form-section" aria-labelledby="choose-requisition-title">
      <h2 id="choose-requisition-title" className="form-section__title">
        Choose the requisition
      </h2>
      <div className="field">
        <label htmlFor={searchId} className="field__label">
          Search by Req ID, title or client internal req
        </label>
        <p id={hintId} className="field__hint">
          For example 40001, “Java” or NW-REQ-0001. Or type a Req ID the list does not show.
        </p>
        <input
          id={searchId}
          type="search"
          className="search"
          aria-describedby={hintId}
          value={search}
          autoComplete="off"
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <CheckboxField checked={onlySubmittable} onChange={setOnlySubmittable}>
        Only requisitions taking candidates (Open or Interview occurring, openings left, submittals
        not closed)
      </CheckboxField>
      <p role="status" className="list-status">
        {query.isPending
          ? 'Loading the requisitions…'
          : query.data
            ? `${countOf(matches.length, 'requisition matches', 'requisitions match')}${matches.length > shownAtMost ? `; the first ${shownAtMost} are shown, type more to narrow them` : ''}${hidden > 0 ? `; ${countOf(hidden, 'other takes', 'others take')} no candidates now and ${hidden === 1 ? 'is' : 'are'} hidden` : ''}.`
            : null}
      </p>
      {query.isError ? (
        <LoadFailure
          what="The requisitions could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
        >
          <p>You can still type a Req ID above and use it without the list.</p>
        </LoadFailure>
      ) : null}
      {matches.length > 0 ? (
        <ul className="submission-list" aria-label="Matching requisitions">
          {matches.slice(0, shownAtMost).map(({ record, reasons }) => (
            <li key={record.reqId}>
              <Link
                to={candidatesPath(record.reqId)}
                aria-label={`Submit a candidate to requisition ${record.reqId}, ${record.fields.titlerole}`}
              >
                <strong>{record.reqId}</strong> ·{' '}
                <bdi className="user-text">{record.fields.titlerole || 'Untitled'}</bdi>
              </Link>{' '}
              <span className="field__hint">
                <bdi className="user-text">{record.fields.clientinternalreq}</bdi> ·{' '}
                {optionLabel(reqStatuses, record.fields.reqstatus) ?? record.fields.reqstatus}
                {reasons.length > 0
                  ? ` · takes no candidates now: ${notSubmittableText(reasons)}`
                  : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {/^\d+$/.test(typed) && !knownId && !query.isPending ? (
        <div className="notice notice--info">
          <p>
            Requisition {typed} is not in the list for this client org, so its skills and questions
            cannot be checked. You may still submit to it: the VMS checks it when the batch is sent.
          </p>
          <Link className="button button--secondary" to={candidatesPath(typed)}>
            Use Req ID {typed}
          </Link>
        </div>
      ) : null}
    </section>
  );
}
