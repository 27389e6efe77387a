import type { InputHTMLAttributes } from 'react';
import { useId } from 'react';

/**
 * A one-line field of a suite case (its id, name, message pattern, the field the message names),
 * in the case editor and in "Add a case by hand": the label above the input, naming it.
 */
export function CaseInput({
  label,
  wide = false,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: string; wide?: boolean }) {
  const id = useId();
  return (
    <div className={wide ? 'field field--wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </div>
  );
}
