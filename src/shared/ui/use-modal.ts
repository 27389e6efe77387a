import { useEffect, useRef, type RefObject } from 'react';

/**
 * A native `<dialog>` shown as a modal while `open` (focus trapped and returned, Escape cancels)
 * and closed when not; as it opens, focus goes to `focus` when given (the safe choice). Where the
 * browser has no `showModal` (jsdom), the `open` attribute stands in.
 */
export function useModal(
  open: boolean,
  focus?: RefObject<HTMLElement | null>,
): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      focus?.current?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open, focus]);
  return ref;
}
