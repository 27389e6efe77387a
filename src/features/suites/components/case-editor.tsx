import type { FormEvent } from 'react';
import { memo, useId, useState } from 'react';
import { payloadKinds, type PayloadKind } from '@/domain/payload-kind';
import { expectedStatusesOf, freeCaseId, type SuiteCase } from '@/domain/suite-cases';
import {
  itemFromText,
  type DraftAction,
  type DraftCase,
} from '@/features/suites/model/suite-draft';
import { countOf } from '@/shared/lib/format';
import { newId } from '@/shared/lib/ids';
import { OptionSelect } from '@/shared/ui/option-select';
import { CaseInput } from './case-input';

/**
 * A suite's cases edited one by one on its page (suite-page.tsx): each case's id, name,
 * expectation and item, moved, duplicated or deleted; and a case added by hand.
 */

const kindLabels: Record<PayloadKind, string> = {
  requisition: 'Requisition',
  candidate: 'Candidate',
};

/** One case of the suite being edited, as a fieldset in the list of cases. */
export const CaseEditor = memo(function CaseEditor({
  entry,
  index,
  last,
  invalid,
  dispatch,
}: {
  entry: DraftCase;
  index: number;
  last: boolean;
  invalid: boolean;
  dispatch: (action: DraftAction) => void;
}) {
  const { key, value } = entry;
  const id = useId();
  const [itemText, setItemText] = useState(() => JSON.stringify(value.item, null, 2));
  const [itemProblem, setItemProblem] = useState<string | null>(null);
  const change = (change: Partial<Omit<SuiteCase, 'id'>>) =>
    dispatch({ type: 'change', key, change });
  const expect = (changed: Partial<SuiteCase['expect']>) => {
    const next: SuiteCase['expect'] = { ...value.expect, ...changed };
    if (next.message === '') delete next.message;
    if (next.field === '') delete next.field;
    change({ expect: next });
  };

  return (
    <li id={`case-${key}`} className={invalid ? 'suite-case suite-case--invalid' : 'suite-case'}>
      <fieldset>
        <legend>
          Case {index + 1}: <span className="user-text">{value.name ?? value.id}</span> (
          {kindLabels[value.kind]})
        </legend>
        <div className="suite-case__fields">
          <CaseInput
            label="Case id"
            value={value.id}
            spellCheck={false}
            onChange={(event) => dispatch({ type: 'change-id', key, id: event.target.value })}
          />
          <CaseInput
            label="Name"
            wide
            value={value.name ?? ''}
            maxLength={200}
            onChange={(event) => change({ name: event.target.value || undefined })}
          />
          <div className="field">
            <label htmlFor={`${id}-status`}>Expected status</label>
            <select
              id={`${id}-status`}
              value={value.expect.status}
              onChange={(event) =>
                expect({
                  status:
                    expectedStatusesOf[value.kind].find(
                      (status) => status === event.target.value,
                    ) ?? value.expect.status,
                })
              }
            >
              {expectedStatusesOf[value.kind].map((status) => (
                <option key={status} value={status}>
                  {status}
                </option>
              ))}
            </select>
          </div>
          <CaseInput
            label="Message pattern (regular expression)"
            value={value.expect.message ?? ''}
            spellCheck={false}
            onChange={(event) => expect({ message: event.target.value })}
          />
          <CaseInput
            label="Field the message names"
            value={value.expect.field ?? ''}
            spellCheck={false}
            onChange={(event) => expect({ field: event.target.value })}
          />
        </div>
        <details className="suite-case__item">
          <summary>Item ({countOf(Object.keys(value.item).length, 'field', 'fields')})</summary>
          <label htmlFor={`${id}-item`}>
            Item as JSON (values may use {'{{run.id}}'}, {'{{unique.email}}'},{' '}
            {'{{<case id>.createdId}}'})
          </label>
          <textarea
            id={`${id}-item`}
            className="inspector__code"
            rows={10}
            spellCheck={false}
            value={itemText}
            aria-invalid={itemProblem !== null}
            aria-describedby={itemProblem ? `${id}-item-problem` : undefined}
            onChange={(event) => setItemText(event.target.value)}
            onBlur={() => {
              const read = itemFromText(itemText);
              if ('problem' in read) {
                setItemProblem(read.problem);
                return;
              }
              setItemProblem(null);
              change({ item: read.item });
            }}
          />
          {itemProblem ? (
            <p id={`${id}-item-problem`} className="field__error">
              {itemProblem} The case keeps its item as it was until this is fixed.
            </p>
          ) : null}
        </details>
        <div className="button-row button-row--compact">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={index === 0}
            onClick={() => dispatch({ type: 'move', key, by: -1 })}
          >
            Move up
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={last}
            onClick={() => dispatch({ type: 'move', key, by: 1 })}
          >
            Move down
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => dispatch({ type: 'duplicate', key, newKey: newId() })}
          >
            Duplicate
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => dispatch({ type: 'delete', key })}
          >
            Delete
          </button>
        </div>
      </fieldset>
    </li>
  );
});

/** A case typed by hand: its kind, id, name, item and expectation. */
export function AddCase({
  taken,
  dispatch,
}: {
  taken: ReadonlySet<string>;
  dispatch: (action: DraftAction) => void;
}) {
  const id = useId();
  const [kind, setKind] = useState<PayloadKind>('requisition');
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const read = itemFromText(text('item') || '{}');
    if ('problem' in read) {
      setProblem(read.problem);
      return;
    }
    const status =
      expectedStatusesOf[kind].find((candidate) => candidate === text('status')) ??
      expectedStatusesOf[kind][0] ??
      'Success';
    const caseId = freeCaseId(text('id') || `${kind === 'requisition' ? 'req' : 'cand'}-1`, taken);
    const value: SuiteCase = {
      id: caseId,
      ...(text('name') ? { name: text('name') } : {}),
      kind,
      item: read.item,
      expect: {
        status,
        ...(text('message') ? { message: text('message') } : {}),
        ...(text('field') ? { field: text('field') } : {}),
      },
    };
    dispatch({ type: 'add', value, key: newId() });
    setProblem(null);
    setAdded(`Case “${caseId}” added at the end. Save the suite to keep it.`);
    form.reset();
    setKind('requisition');
  };

  return (
    <details className="suite-add">
      <summary>Add a case by hand</summary>
      <form onSubmit={onSubmit} aria-label="Add a case by hand" className="suite-case__fields">
        <div className="field">
          <label htmlFor={`${id}-kind`}>Kind</label>
          <OptionSelect<PayloadKind>
            id={`${id}-kind`}
            name="kind"
            value={kind}
            options={payloadKinds.map((candidate) => ({
              value: candidate,
              label: kindLabels[candidate],
            }))}
            onChange={setKind}
          />
        </div>
        <CaseInput label="Case id" name="id" spellCheck={false} placeholder="create-req" />
        <CaseInput label="Name" wide name="name" maxLength={200} />
        <div className="field field--wide">
          <label htmlFor={`${id}-item`}>Item as JSON</label>
          <textarea
            id={`${id}-item`}
            name="item"
            rows={8}
            spellCheck={false}
            className="inspector__code"
            defaultValue="{}"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
          {problem ? (
            <p id={`${id}-problem`} className="field__error">
              {problem}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-status`}>Expected status</label>
          <select id={`${id}-status`} name="status" key={kind}>
            {expectedStatusesOf[kind].map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </div>
        <CaseInput label="Message pattern (regular expression)" name="message" spellCheck={false} />
        <CaseInput label="Field the message names" name="field" spellCheck={false} />
        <div className="button-row">
          <button type="submit" className="button button--secondary">
            Add the case
          </button>
          <span role="status">{added}</span>
        </div>
      </form>
    </details>
  );
}
