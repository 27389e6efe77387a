import type { ReactNode } from 'react';
import { useInPageShell } from '@/shared/ui/page-shell-context';

/** The submit button at the foot of a form, with the form's other actions beside it. */
export function FormActions({
  submitLabel,
  children,
}: {
  submitLabel: string;
  children?: ReactNode;
}) {
  // In the prerendered page, disabled until the app's form replaces it (so is a press of Enter).
  const inShell = useInPageShell();
  return (
    <div className="form-actions">
      <button type="submit" className="button" disabled={inShell}>
        {submitLabel}
      </button>
      {children}
    </div>
  );
}
