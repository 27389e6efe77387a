import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { BatchKind, WireItem } from '@/core/batch/model/batch-kind';
import { addCases, createSuite, suitesKey, suitesQueryOptions } from '@/core/suites/api/suites';
import {
  acceptedStatus,
  casesFromItems,
  expectedStatusesOf,
  getsPerRunValues,
  perRunFields,
  type SuiteCase,
} from '@/domain/suite-cases';
import { withGeneratedPersonalValues } from '@/domain/suite-personal';
import { errorMessage } from '@/shared/api/http';
import { countOf } from '@/shared/lib/format';
import { useMay } from '@/shared/session/session';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { useModal } from '@/shared/ui/use-modal';

/** An item to keep as a case, with what it should expect when that is known (a sent one's outcome). */
export interface CaseItem {
  item: WireItem;
  /** Null: the outcome chosen in the dialog. */
  expect: SuiteCase['expect'] | null;
  /** Where it comes from, for the case's name: "call #12, row 1", "item 3 of the batch"… */
  origin: string;
}

export interface SaveAsCasesProps {
  kind: BatchKind;
  /** The items, read when the dialog opens (a journal call's results are fetched then). */
  items: () => Promise<CaseItem[]> | CaseItem[];
  /** The button's words. */
  label?: string;
  disabled?: boolean;
}

type Loaded = { items: CaseItem[] } | { problem: string } | null;

/** Text with its `{{…}}` references taken out, for a case's name. */
function withoutReferences(text: string): string {
  return text
    .replace(/\{\{[^}]*\}\}/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function expectText(expect: SuiteCase['expect']): string {
  return `${expect.status}${expect.field ? ` naming ${expect.field}` : ''}${expect.message ? ` matching /${expect.message}/` : ''}`;
}

/**
 * "Save as cases": keeps items where QA already is (a journal call, the batch tray, an import, a
 * composed call) as cases of a QA suite on the server (decision 038): into a suite of the team's,
 * or a new one. A sent call's items expect the outcome the VMS gave them; others the outcome
 * chosen here. The values a VMS refuses to see twice become new for each run unless unticked.
 * Only for QA and admins.
 */
export function SaveAsCases({
  kind,
  items,
  label = 'Save as cases…',
  disabled = false,
}: SaveAsCasesProps) {
  const may = useMay('qa');
  const queryClient = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const dialogRef = useModal(open);
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [target, setTarget] = useState<'existing' | 'new'>('existing');
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<{
    id: number;
    name: string;
    count: number;
    version: number;
  } | null>(null);
  const suites = useQuery({ ...suitesQueryOptions(), enabled: open });

  if (!may) return null;

  const start = async () => {
    setSaved(null);
    setProblem(null);
    setLoaded(null);
    setOpen(true);
    try {
      setLoaded({ items: await items() });
    } catch (error) {
      setLoaded({ problem: errorMessage(error) });
    }
  };

  /** Leaves the dialog without saving, under the word its place calls for. */
  const closeButton = (label: string) => (
    <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
      {label}
    </button>
  );

  const list = suites.data ?? [];
  const chosenTarget = list.length === 0 ? 'new' : target;
  /** Where the cases go: a radio button of the "Into which suite" choice. */
  const targetChoice = (value: 'existing' | 'new', label: string) => (
    <label className="checkbox">
      <input
        type="radio"
        name="target"
        value={value}
        checked={chosenTarget === value}
        onChange={() => setTarget(value)}
      />{' '}
      {label}
    </label>
  );
  const ready = loaded !== null && 'items' in loaded ? loaded.items : null;
  const needsChoice = ready?.some((entry) => entry.expect === null) ?? false;

  const onSave = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready) return;
    const data = new FormData(event.currentTarget);
    const chosen = expectedStatusesOf[kind.id].find((status) => status === data.get('status'));
    const keepPersonal = data.get('keepPersonal') === 'on';
    const cases = casesFromItems(
      kind.id,
      ready.map((entry, index) => {
        const expect = entry.expect ?? { status: chosen ?? acceptedStatus[kind.id] };
        const item = keepPersonal
          ? entry.item
          : withGeneratedPersonalValues(kind.id, entry.item, expect);
        // Named from the item as saved: a candidate's name and e-mail are not in the case's name
        // or id unless the real values are kept.
        const summary = kind.summarize(item);
        const reference = withoutReferences(summary.reference);
        const what = [withoutReferences(summary.title), reference]
          .filter((part) => part !== '')
          .join(', ');
        return {
          item,
          idBase: `${kind.caseIdPrefix}-${reference || index + 1}`,
          name: `${what || kind.noun.one}, from ${entry.origin}`,
          expect,
        };
      }),
      { perRun: data.get('perRun') === 'on' },
    );
    setSaving(true);
    setProblem(null);
    try {
      let detail;
      if (chosenTarget === 'new') {
        const name = String(data.get('name') ?? '').trim();
        if (name === '') {
          setProblem('Give the new suite a name, such as “Nightly regression”.');
          return;
        }
        detail = await createSuite({ name, cases });
      } else {
        const suiteId = Number(data.get('suite'));
        detail = await addCases(suiteId, cases);
      }
      setSaved({ id: detail.id, name: detail.name, count: cases.length, version: detail.version });
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: suitesKey });
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button button--secondary"
        disabled={disabled}
        onClick={() => void start()}
      >
        {label}
      </button>
      {saved ? (
        <span role="status" className="save-cases__saved">
          Saved {countOf(saved.count, 'case', 'cases')} to{' '}
          <Link to={`/suites/${saved.id}`}>{saved.name}</Link> (version {saved.version}).
        </span>
      ) : null}
      <dialog
        ref={dialogRef}
        className="dialog dialog--form"
        aria-labelledby={`${id}-title`}
        onCancel={(event) => {
          event.preventDefault();
          setOpen(false);
        }}
      >
        <h2 id={`${id}-title`} className="dialog__title">
          {ready
            ? `Save ${countOf(ready.length, kind.noun.one, kind.noun.many)} as cases`
            : 'Save as cases'}
        </h2>
        {loaded === null ? <p aria-busy="true">Reading what to save…</p> : null}
        {loaded && 'problem' in loaded ? (
          <>
            <p role="alert" className="notice notice--error">
              {loaded.problem}
            </p>
            <div className="button-row">{closeButton('Close')}</div>
          </>
        ) : null}
        {ready ? (
          <form onSubmit={(event) => void onSave(event)} className="save-cases">
            <fieldset>
              <legend>Into which suite</legend>
              {list.length > 0 ? (
                <>
                  {targetChoice('existing', 'A suite of the team’s')}
                  <label htmlFor={`${id}-suite`} className="visually-hidden">
                    Suite
                  </label>
                  <select
                    id={`${id}-suite`}
                    name="suite"
                    disabled={chosenTarget !== 'existing'}
                    defaultValue={String(list[0]?.id ?? '')}
                  >
                    {list.map((suite) => (
                      <option key={suite.id} value={suite.id}>
                        {suite.name} ({countOf(suite.caseCount, 'case', 'cases')})
                      </option>
                    ))}
                  </select>
                </>
              ) : suites.isPending ? (
                <p aria-busy="true">Loading the suites…</p>
              ) : null}
              {targetChoice('new', 'A new suite')}
              <label htmlFor={`${id}-name`}>Name of the new suite</label>
              <input
                id={`${id}-name`}
                name="name"
                maxLength={200}
                disabled={chosenTarget !== 'new'}
                autoComplete="off"
              />
            </fieldset>
            {needsChoice ? (
              <div className="field">
                <label htmlFor={`${id}-status`}>Each case expects</label>
                <select id={`${id}-status`} name="status" defaultValue={acceptedStatus[kind.id]}>
                  {expectedStatusesOf[kind.id].map((status) => (
                    <option key={status} value={status}>
                      {status}
                    </option>
                  ))}
                </select>
                <p className="field__hint">
                  Change a case’s expectation later on the suite’s page (its message or the field it
                  names).
                </p>
              </div>
            ) : null}
            {ready.some((entry) => entry.expect !== null) ? (
              <>
                <p>Each case expects what the VMS answered it:</p>
                <ul className="save-cases__expects">
                  {ready.map((entry, index) =>
                    entry.expect ? (
                      <li key={index}>
                        {entry.origin}: {expectText(entry.expect)}
                        {getsPerRunValues(entry.expect) ? '' : ', with its values as they are'}
                      </li>
                    ) : null,
                  )}
                </ul>
              </>
            ) : null}
            <label className="checkbox">
              <input type="checkbox" name="perRun" defaultChecked /> New values for each run:{' '}
              {perRunFields[kind.id]}, so the suite runs again and again without duplicates. Only
              for cases expected to be accepted: a case expecting Error keeps its values, since its
              refusal may be for them (a duplicate, an unknown id)
            </label>
            <label className="checkbox">
              <input type="checkbox" name="keepPersonal" /> Keep the real personal data: without
              this, each name, e-mail, identifier and free text of a person becomes one the run
              makes (a case expecting Error keeps the field it names); rates and choices stay
            </label>
            <ErrorNotice message={problem} />
            <div className="button-row">
              <button type="submit" className="button" disabled={saving}>
                {saving ? 'Saving…' : 'Save the cases'}
              </button>
              {closeButton('Cancel')}
            </div>
          </form>
        ) : null}
      </dialog>
    </>
  );
}
