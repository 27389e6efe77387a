import { ConfirmDialog } from '@/shared/ui/confirm-dialog';

/** Asked before loaded work (Edit, Fix, another record) replaces unsaved changes. */
export function ReplaceFormDialog({
  label,
  onReplace,
  onKeep,
}: {
  /** What would be loaded: "item 2 of the batch", "requisition 40001". */
  label: string | null;
  onReplace(): void;
  onKeep(): void;
}) {
  return (
    <ConfirmDialog
      open={label !== null}
      title="Replace the form?"
      confirmLabel="Replace my changes"
      cancelLabel="Keep my changes"
      destructive
      onConfirm={onReplace}
      onCancel={onKeep}
    >
      <p>
        The form holds changes you have not added to the batch. Loading {label ?? 'the item'}{' '}
        replaces them.
      </p>
    </ConfirmDialog>
  );
}
