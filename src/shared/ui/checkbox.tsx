import type { ReactNode } from 'react';
import { useId } from 'react';

interface CheckboxProps {
  checked: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
}

/**
 * A yes/no setting of a page with its label beside the box: the label names the box through
 * `htmlFor`, so a long label wraps beside it and still checks it when clicked.
 */
export function CheckboxField({ checked, onChange, children }: CheckboxProps) {
  const id = useId();
  return (
    <div className="checkbox">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{children}</label>
    </div>
  );
}

/** A yes/no switch of a list or a form, the box inside its label: a short label on one line. */
export function CheckboxLabel({ checked, onChange, children }: CheckboxProps) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />{' '}
      {children}
    </label>
  );
}
