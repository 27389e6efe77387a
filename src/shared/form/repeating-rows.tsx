import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { get, useFieldArray, useFormContext, useFormState } from 'react-hook-form';
import { errorId, fieldId } from './field-ids';
import { sectionHeadingId } from './form-nav';

export interface RepeatingRowsProps {
  /** The field array's path, e.g. `skills`. */
  name: string;
  title: string;
  /** "skill" / "skills", for the buttons and the limit message. */
  noun: { one: string; many: string };
  /** What owns the rows, for the limit message: "A requisition". */
  owner: string;
  max: number;
  hint: string;
  newRow(): FieldValues;
  /** The part focused in a new row and after a remove, e.g. `description`. */
  focusPart: string;
  renderRow(index: number): ReactNode;
}

function focusLater(id: string, fallbackId: string) {
  setTimeout(
    () => (document.getElementById(id) ?? document.getElementById(fallbackId))?.focus(),
    0,
  );
}

/**
 * Dynamic rows (react-hook-form's useFieldArray, keyed by `field.id` so each row keeps its DOM
 * and state when rows move): add, remove, move up and down, at most `max`. At the limit the add
 * button is disabled and the text beside it says why. Sequence numbers are the row order.
 */
export function RepeatingRows({
  name,
  title,
  noun,
  owner,
  max,
  hint,
  newRow,
  focusPart,
  renderRow,
}: RepeatingRowsProps) {
  const { control } = useFormContext();
  const { fields, append, remove, move } = useFieldArray({ control, name });
  const { errors } = useFormState({ control, name, exact: true });
  const arrayError: unknown = get(errors, name);
  const arrayMessage =
    arrayError && typeof arrayError === 'object'
      ? ((arrayError as { message?: unknown; root?: { message?: unknown } }).message ??
        (arrayError as { root?: { message?: unknown } }).root?.message)
      : undefined;
  const limitId = `${fieldId(name)}-limit`;
  const atLimit = fields.length >= max;
  const Noun = noun.one.charAt(0).toUpperCase() + noun.one.slice(1);

  return (
    <RowsSection title={title} hint={hint}>
      {fields.length === 0 ? <p className="rows__empty">No {noun.many} yet.</p> : null}
      <ol className="rows">
        {fields.map((field, index) => {
          const first = index === 0;
          const last = index === fields.length - 1;
          const rowName = `${Noun} ${index + 1}`;
          return (
            <RowItem key={field.id} legend={rowName} fields={renderRow(index)}>
              <div className="button-row button-row--compact">
                {/* aria-disabled, not disabled: the button keeps focus after moving to an end. The
                    aria-label names the row; it starts with the visible text (WCAG 2.5.3). */}
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-disabled={first || undefined}
                  aria-label={`Move up ${rowName}`}
                  onClick={() => {
                    if (!first) move(index, index - 1);
                  }}
                >
                  Move up
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-disabled={last || undefined}
                  aria-label={`Move down ${rowName}`}
                  onClick={() => {
                    if (!last) move(index, index + 1);
                  }}
                >
                  Move down
                </button>
                <button
                  type="button"
                  className="button button--warning button--small"
                  aria-label={`Remove ${rowName}`}
                  onClick={() => {
                    remove(index);
                    // Focus the row that took its place, or the add button.
                    focusLater(fieldId(`${name}.${index}.${focusPart}`), fieldId(name));
                  }}
                >
                  Remove
                </button>
              </div>
            </RowItem>
          );
        })}
      </ol>
      <div className="rows__add">
        <button
          id={fieldId(name)}
          type="button"
          className="button button--secondary"
          disabled={atLimit}
          aria-describedby={`${limitId} ${errorId(name)}`}
          onClick={() =>
            append(newRow(), {
              shouldFocus: true,
              focusName: `${name}.${fields.length}.${focusPart}`,
            })
          }
        >
          Add a {noun.one}
        </button>
        <p id={limitId} className="field__hint">
          {atLimit
            ? `${owner} can have at most ${max} ${noun.many}: remove one to add another.`
            : `${fields.length} of at most ${max} ${noun.many}.`}
        </p>
        <p id={errorId(name)} className="field__error">
          {typeof arrayMessage === 'string' ? arrayMessage : null}
        </p>
      </div>
    </RowsSection>
  );
}

/** A section of rows: its heading and hint above what the caller puts in it. */
export function RowsSection({
  title,
  hint,
  children,
}: {
  title: string;
  hint: string;
  children: ReactNode;
}) {
  const headingId = sectionHeadingId(title);
  return (
    <section className="form-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="form-section__title" tabIndex={-1}>
        {title}
      </h2>
      <p className="field__hint">{hint}</p>
      {children}
    </section>
  );
}

/** One row: a fieldset named by its legend, an optional note, its fields, then `children`. */
export function RowItem({
  legend,
  note,
  fields,
  children,
}: {
  legend: string;
  note?: string | undefined;
  fields: ReactNode;
  children?: ReactNode;
}) {
  return (
    <li className="rows__item">
      <fieldset className="row">
        <legend className="row__legend">{legend}</legend>
        {note ? <p className="field__hint">{note}</p> : null}
        <div className="row__fields">{fields}</div>
        {children}
      </fieldset>
    </li>
  );
}
