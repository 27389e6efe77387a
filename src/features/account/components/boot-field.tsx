import type { InputHTMLAttributes } from 'react';
import { useId } from 'react';

/**
 * A field of the forms shown before the portal opens (sign in, set a password): its label above
 * it, naming it through `htmlFor`, so a password manager and a screen reader both find it.
 */
export function BootField({
  label,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { label: string; name: string }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} />
    </>
  );
}
