import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useReducer, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  deleteSuite,
  saveSuite,
  suiteExportHref,
  suiteQueryOptions,
  suiteRunsQueryOptions,
  suitesKey,
  suiteVersionsQueryOptions,
} from '@/core/suites/api/suites';
import type { SuiteDetail } from '@/domain/suite-run';
import { draftOf, draftProblems, draftReducer, suiteOf } from '@/features/suites/model/suite-draft';
import { useSuitesChange } from '@/features/suites/model/use-suites-change';
import { errorMessage, RequestFailure } from '@/shared/api/http';
import { countOf, formatDateTime } from '@/shared/lib/format';
import { newId } from '@/shared/lib/ids';
import { ConfirmButton } from '@/shared/ui/confirm-dialog';
import { DataTable } from '@/shared/ui/data-table';
import { DateTime } from '@/shared/ui/date-time';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { useAddressParams } from '@/shared/ui/use-address-params';
import { CaseEditor, AddCase } from './case-editor';
import { NotRead } from './not-read';
import { RunPanel } from './run-panel';
import { RunsTable } from './runs-table';
import { SchedulesPanel } from './schedules-panel';
import { SuiteFileField } from './suite-file-field';

/**
 * /suites/:id[?version=]: one of the team's suites (decision 038). Its cases, edited in place
 * (expectations, ids, items; moved, duplicated, deleted; added by hand) and saved as a new
 * version; its versions, each viewable and restorable; its file exported and imported; run on a
 * connection with progress as it goes; its runs.
 */
export function SuitePage({ id }: { id: number }) {
  const [params, setParams] = useAddressParams();
  const asked = Number(params.get('version') ?? '');
  const version = Number.isInteger(asked) && asked > 0 ? asked : undefined;
  const suite = useQuery(suiteQueryOptions(id, version));
  const headingId = useId();
  // Said once a version is saved: the editor starts afresh on it, so the word is kept here.
  const [saved, setSaved] = useState<string | null>(null);

  if (suite.isPending)
    return (
      <p className="page" aria-busy="true">
        Loading the suite…
      </p>
    );
  if (suite.isError) return <NotRead heading={`Suite ${id}`} error={suite.error} />;
  const detail = suite.data;
  const old = detail.version !== detail.latestVersion;
  return (
    <div className="page suite-page">
      <title>{`${detail.name} · Suites · VMS submission portal`}</title>
      <p>
        <Link to="/suites">All suites</Link>
      </p>
      <div className="page__header">
        <h1 id={headingId} className="user-text">
          {detail.name}
        </h1>
        <div className="button-row">
          <a
            className="button button--secondary"
            href={suiteExportHref(detail.id, old ? detail.version : undefined)}
            download
          >
            Export the suite file
          </a>
        </div>
      </div>
      <p className="page__lead">
        Version {detail.version}
        {old ? ` of ${detail.latestVersion}` : ''}, saved{' '}
        <time dateTime={detail.savedAt}>{formatDateTime(detail.savedAt)}</time>
        {detail.savedBy ? (
          <span className="user-text"> by {detail.savedBy.email}</span>
        ) : null}. {countOf(detail.suite.cases.length, 'case', 'cases')}.
      </p>
      {old ? (
        <p className="notice notice--warning">
          You are looking at version {detail.version}, an earlier one. Restore it to make it the
          latest, or{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => setParams({ version: null })}
          >
            go back to the latest
          </button>
          .
        </p>
      ) : null}
      <RunPanel suiteId={detail.id} latestVersion={detail.latestVersion} />
      <SchedulesPanel suiteId={detail.id} />
      <SuiteEditor
        key={`${detail.id}:${detail.version}`}
        detail={detail}
        saved={saved}
        onSaved={setSaved}
      />
      <Versions
        suiteId={detail.id}
        shown={detail.version}
        onView={(shown) =>
          setParams({ version: shown === detail.latestVersion ? null : String(shown) })
        }
      />
      <Runs suiteId={detail.id} />
    </div>
  );
}

function SuiteEditor({
  detail,
  saved: savedNote,
  onSaved,
}: {
  detail: SuiteDetail;
  /** What the last save said, shown until something else is. */
  saved: string | null;
  onSaved(note: string | null): void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [, setParams] = useAddressParams();
  const id = useId();
  const [draft, dispatch] = useReducer(draftReducer, detail.suite, (suite) =>
    draftOf(suite, newId),
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const change = useSuitesChange(setProblem);
  const [saving, setSaving] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  const old = detail.version !== detail.latestVersion;
  const saved = useMemo(() => JSON.stringify(detail.suite), [detail.suite]);
  const edited = JSON.stringify(suiteOf(draft)) !== saved;
  const problems = useMemo(() => draftProblems(draft), [draft]);
  const problemKeys = useMemo(() => new Set(problems.map((entry) => entry.key)), [problems]);
  const taken = useMemo(() => new Set(draft.cases.map((entry) => entry.value.id)), [draft.cases]);

  const save = async () => {
    setDone(null);
    onSaved(null);
    setProblem(null);
    if (problems.length > 0) {
      setShowProblems(true);
      document.getElementById(`${id}-problems`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const next = await saveSuite(detail.id, detail.latestVersion, suiteOf(draft));
      await queryClient.invalidateQueries({ queryKey: suitesKey });
      setParams({ version: null });
      onSaved(`Saved as version ${next.version}.`);
    } catch (error) {
      setProblem(
        error instanceof RequestFailure && error.code === 'version_conflict'
          ? `${error.message} Your changes are still here: copy what you need, then reload.`
          : errorMessage(error),
      );
    } finally {
      setSaving(false);
    }
  };

  const remove = () =>
    change(
      () => deleteSuite(detail.id),
      () => void navigate('/suites'),
    );

  return (
    <section aria-labelledby={`${id}-cases`} className="suite-editor">
      <h2 id={`${id}-cases`}>Cases ({draft.cases.length})</h2>
      <div className="button-row">
        <SuiteFileField
          label="Import a suite file in place of these cases"
          onChoose={() => setProblem(null)}
          onProblem={(problem) => setProblem(`${problem} Nothing changed.`)}
          onRead={(suite, file) => {
            dispatch({ type: 'load', suite, keyOf: newId });
            setDone(
              `${file.name} is loaded in place of the cases below. Save it to make it a new version.`,
            );
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-name`}>Suite name</label>
        <input
          id={`${id}-name`}
          value={draft.name}
          maxLength={200}
          onChange={(event) => dispatch({ type: 'rename-suite', name: event.target.value })}
        />
      </div>
      {showProblems && problems.length > 0 ? (
        <div className="error-summary" role="alert" id={`${id}-problems`} tabIndex={-1}>
          <h3 className="error-summary__title">The suite cannot be saved yet</h3>
          <ul className="error-summary__list">
            {problems.map((entry, index) => (
              <li key={index}>
                {entry.key ? <a href={`#case-${entry.key}`}>{entry.message}</a> : entry.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ol className="suite-cases">
        {draft.cases.map((entry, index) => (
          <CaseEditor
            key={entry.key}
            entry={entry}
            index={index}
            last={index === draft.cases.length - 1}
            invalid={problemKeys.has(entry.key)}
            dispatch={dispatch}
          />
        ))}
      </ol>
      <AddCase taken={taken} dispatch={dispatch} />
      <div className="suite-editor__save">
        <ErrorNotice message={problem} />
        <p role="status">{done ?? (edited ? 'Changes not saved yet.' : (savedNote ?? ''))}</p>
        <div className="button-row">
          <button
            type="button"
            className="button"
            disabled={saving || (!edited && !old)}
            onClick={() => void save()}
          >
            {saving
              ? 'Saving…'
              : old
                ? `Restore as version ${detail.latestVersion + 1}`
                : `Save as version ${detail.latestVersion + 1}`}
          </button>
          {edited ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                dispatch({ type: 'load', suite: detail.suite, keyOf: newId });
                setDone('Changes discarded.');
              }}
            >
              Discard changes
            </button>
          ) : null}
          <ConfirmButton
            label="Delete the suite"
            title={`Delete the suite “${detail.name}”?`}
            confirmLabel="Delete the suite"
            destructive
            onConfirm={() => void remove()}
          >
            <p>
              Its {countOf(detail.latestVersion, 'version', 'versions')} and its runs go with it,
              for the whole team. Export the suite file first to keep a copy.
            </p>
          </ConfirmButton>
        </div>
      </div>
    </section>
  );
}

function Versions({
  suiteId,
  shown,
  onView,
}: {
  suiteId: number;
  shown: number;
  onView(version: number): void;
}) {
  const versions = useQuery(suiteVersionsQueryOptions(suiteId));
  const id = useId();
  return (
    <section aria-labelledby={`${id}-versions`}>
      <h2 id={`${id}-versions`}>Versions</h2>
      {versions.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(versions.error)}
        </p>
      ) : null}
      {versions.data ? (
        <DataTable
          rows={versions.data}
          rowKey={(entry) => entry.version}
          isCurrent={(entry) => entry.version === shown}
          columns={[
            { heading: 'Version', cell: (entry) => entry.version },
            { heading: 'Saved', cell: (entry) => <DateTime at={entry.savedAt} seconds /> },
            { heading: 'By', className: 'user-text', cell: (entry) => entry.savedBy?.email ?? '–' },
            { heading: 'Cases', cell: (entry) => entry.caseCount },
            {
              heading: 'Action',
              headingHidden: true,
              cell: (entry) =>
                entry.version === shown ? (
                  'Shown'
                ) : (
                  <button
                    type="button"
                    className="link-button"
                    onClick={() => onView(entry.version)}
                  >
                    View version {entry.version}
                  </button>
                ),
            },
          ]}
        />
      ) : null}
    </section>
  );
}

function Runs({ suiteId }: { suiteId: number }) {
  const runs = useQuery(suiteRunsQueryOptions(suiteId));
  const id = useId();
  return (
    <section aria-labelledby={`${id}-runs`}>
      <h2 id={`${id}-runs`}>Runs</h2>
      {runs.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(runs.error)}
        </p>
      ) : null}
      {runs.data?.length === 0 ? <p>Not run yet.</p> : null}
      {runs.data && runs.data.length > 0 ? <RunsTable runs={runs.data} suiteId={suiteId} /> : null}
    </section>
  );
}
