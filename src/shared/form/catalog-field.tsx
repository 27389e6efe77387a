import type { ReactNode } from 'react';
import { memo, useState } from 'react';
import { get, useFormContext, useFormState } from 'react-hook-form';
import type { FieldDef } from '@/domain/catalog-types';
import { ClearedNote, useNotedValue } from './cleared-note';
import { errorId, fieldId, hintId } from './field-ids';

/**
 * The space a corrected field's message took, kept (invisible, hidden from assistive technology)
 * until the next submit: fixing a field while typing never makes the fields below jump up.
 */
function useMessageSpace(message: string | undefined, submitCount: number): string | undefined {
  const [space, setSpace] = useState<{ text: string; attempt: number } | null>(null);
  if (message !== undefined && (space?.text !== message || space.attempt !== submitCount)) {
    setSpace({ text: message, attempt: submitCount });
  }
  if (message === undefined && space !== null && space.attempt !== submitCount) setSpace(null);
  return message === undefined && space?.attempt === submitCount ? space.text : undefined;
}

export interface CatalogFieldProps {
  def: FieldDef;
  /** Form path; defaults to the wire key. Rows use `skills.2.description`. */
  name?: string;
  /** Label override (rows: "Description"); defaults to the catalog label. */
  label?: string;
  /** The wire name shown as secondary text; defaults to the catalog key. */
  wireName?: string;
  required?: boolean;
  /** Text of the empty choice of a select. */
  blankLabel?: string;
  /** A `<datalist>` id offering suggestions. */
  list?: string | undefined;
  /** Hint override; `null` hides the catalog hint, `undefined` keeps it. */
  hint?: string | null | undefined;
}

/**
 * One payload field, built from its catalog entry: the label shows the human name with the wire
 * name as secondary text, the hint comes from the catalog, enumerations are selects with their
 * labels, DATE fields are native date inputs. The input is registered (uncontrolled), and the
 * component subscribes to its own error only, so typing elsewhere never re-renders it.
 */
export const CatalogField = memo(function CatalogField({
  def,
  name = def.key,
  label = def.label,
  wireName = def.key,
  required = false,
  blankLabel = 'Not set',
  list,
  hint,
}: CatalogFieldProps) {
  // A text area when the catalog says the field is free text over several lines: the catalog is
  // the one place that says so, for every form and for the benchmark's plain page alike.
  const multiline = def.multiline === true;
  const { register, control } = useFormContext();
  const { errors, submitCount } = useFormState({ control, name, exact: true });
  const error: unknown = get(errors, name);
  const message =
    error && typeof error === 'object' && 'message' in error && typeof error.message === 'string'
      ? error.message
      : undefined;
  const ghost = useMessageSpace(message, submitCount);

  const id = fieldId(name);
  const hintText = hint === null ? undefined : (hint ?? def.hint);
  // The message line: a problem; a corrected one's kept space, the very same text hidden; or an
  // Amend's note. It describes the field while it is there, as in the GOV.UK pattern. Assistive
  // technology reads no description from the hidden space, and the form Chromium's autofill copies
  // on each keystroke stays the same when a message is corrected, so the browser does not parse
  // the whole form again while the user types (decision 022).
  const loadedValue = useNotedValue(name);
  const said = message ?? ghost;
  const text = said ? (
    <>
      <span className="visually-hidden">Error: </span>
      {said}
    </>
  ) : null;
  const line: ReactNode = message ? (
    text
  ) : ghost ? (
    <span className="field__error-space" aria-hidden="true">
      {text}
    </span>
  ) : loadedValue !== undefined ? (
    <ClearedNote name={name} loaded={loadedValue} />
  ) : null;

  const describedBy = [hintText ? hintId(name) : null, line ? errorId(name) : null]
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    'aria-describedby': describedBy || undefined,
    'aria-invalid': message ? true : undefined,
    'aria-required': required || undefined,
    ...register(name),
  };

  let input: ReactNode;
  if (def.options) {
    input = (
      <select {...common}>
        <option value="">{blankLabel}</option>
        {def.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.value === option.label ? option.label : `${option.label} (${option.value})`}
          </option>
        ))}
      </select>
    );
  } else if (def.type === 'DATE') {
    input = <input type="date" {...common} />;
  } else if (multiline) {
    input = <textarea rows={3} {...common} />;
  } else {
    input = (
      <input
        type={def.format === 'email' ? 'email' : 'text'}
        inputMode={
          def.type === 'INTEGER' ? 'numeric' : def.type === 'DECIMAL' ? 'decimal' : undefined
        }
        autoComplete="off"
        spellCheck={def.type === 'STRING' ? undefined : false}
        list={list}
        {...common}
      />
    );
  }

  return (
    <div className={`field${message ? ' field--error' : ''}${multiline ? ' field--wide' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label} <span className="wire-name">· {wireName}</span>
        {required ? <span className="field__required"> (required)</span> : null}
      </label>
      {hintText ? (
        <p id={hintId(name)} className="field__hint">
          {hintText}
        </p>
      ) : null}
      {input}
      {/* Only while it can say something: the grid keeps an empty line's space (app.css), and
          Chromium copies the whole form, element by element, on each keystroke (decision 022). */}
      {line ? (
        <p id={errorId(name)} className="field__error">
          {line}
        </p>
      ) : null}
    </div>
  );
});
