import type { ReactNode } from 'react';
import { useId, useState } from 'react';

export interface DisclosureProps {
  /** The button's text, open or closed. */
  label(open: boolean): ReactNode;
  /** The button's class names. */
  className: string;
  /** The region's id, when others point at it; a generated one otherwise. */
  id?: string | undefined;
  initiallyOpen?: boolean | undefined;
  /** The region's content, made only while it is open (nothing is kept in the page closed). */
  children(): ReactNode;
}

/**
 * A button that shows and hides a region below it (the WAI-ARIA disclosure pattern). Not a
 * `<details>`: Chromium keeps a closed one's content locked from layout, and while a page holds
 * such a lock its autofill copy of a form on each keystroke checks every field's ancestors for
 * one, which made each key on the long form dearer (decision 022).
 */
export function Disclosure({
  label,
  className,
  id,
  initiallyOpen = false,
  children,
}: DisclosureProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const generated = useId();
  const regionId = id ?? generated;
  return (
    <>
      <button
        type="button"
        className={className}
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => setOpen((shown) => !shown)}
      >
        {label(open)}
      </button>
      <div id={regionId} hidden={!open}>
        {open ? children() : null}
      </div>
    </>
  );
}
