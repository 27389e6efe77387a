import type { ReactNode } from 'react';

/** The submit button at the foot of a form, with the form's other actions beside it. */
export function FormActions({
  submitLabel,
  children,
}: {
  submitLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="form-actions">
      <button type="submit" className="button">
        {submitLabel}
      </button>
      {children}
    </div>
  );
}
