import type { ReactNode } from 'react';
import { useId, useRef, useState } from 'react';
import { useModal } from './use-modal';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** A destructive action gets the warning colour. */
  destructive?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A modal question, on the native `<dialog>` (focus is trapped and returned, Escape cancels).
 * Focus starts on the safe choice.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const ref = useModal(open, cancelRef);
  const titleId = useId();

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <div className="dialog__body">{children}</div>
      <div className="button-row">
        <button
          type="button"
          className={destructive ? 'button button--warning' : 'button'}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
        <button
          ref={cancelRef}
          type="button"
          className="button button--secondary"
          onClick={onCancel}
        >
          {cancelLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * A button for an action that asks first (sign out everywhere, clear data, delete): it opens
 * the question, and the action runs once it is confirmed, the question closed first.
 */
export function ConfirmButton({
  label,
  className = 'button button--warning',
  onConfirm,
  ...dialog
}: Omit<ConfirmDialogProps, 'open' | 'onCancel'> & { label: string; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        {label}
      </button>
      <ConfirmDialog
        {...dialog}
        open={open}
        onConfirm={() => {
          setOpen(false);
          onConfirm();
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
