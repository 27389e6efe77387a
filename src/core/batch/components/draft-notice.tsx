import { useState } from 'react';
import { formatDateTime } from '@/shared/lib/format';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';

/** "Draft restored", with a way to throw the draft away (after a confirmation). */
export function DraftNotice({ savedAt, onDiscard }: { savedAt: string | null; onDiscard(): void }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="notice notice--info" role="status">
      <p>
        <strong>Draft restored.</strong> The form is as you left it
        {savedAt ? (
          <>
            {' '}
            (saved <time dateTime={savedAt}>{formatDateTime(savedAt)}</time>)
          </>
        ) : null}
        .{' '}
        <button type="button" className="link-button" onClick={() => setConfirming(true)}>
          Discard draft
        </button>
      </p>
      <ConfirmDialog
        open={confirming}
        title="Discard this draft?"
        confirmLabel="Discard draft"
        cancelLabel="Keep it"
        destructive
        onConfirm={() => {
          setConfirming(false);
          onDiscard();
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>
          What you typed in this form is removed and the form starts afresh. The batch is not
          affected.
        </p>
      </ConfirmDialog>
    </div>
  );
}
