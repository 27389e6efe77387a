import type { ReactNode } from 'react';
import { useId } from 'react';

/** What a Field gives its control: the id its label names and, with a hint, the hint's id. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
}

/**
 * A labelled control of a form that is not a catalog's (a webhook, a token, a user): the label
 * above, a hint under it when there is one, then the control. The Field makes the ids, so a label
 * always names its control and a hint always describes it.
 */
export function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: ReactNode;
  children(control: FieldControlProps): ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {children(hint ? { id, 'aria-describedby': hintId } : { id })}
    </div>
  );
}
