import { fixNoticeId } from '@/core/batch/hooks/use-vms-flag';
import { useDraft } from '@/core/batch/hooks/use-workspace-session';
import type { WorkspaceSession } from '@/core/batch/hooks/use-workspace-session';
import type { Start } from '@/core/batch/model/drafts';
import { DraftNotice } from './draft-notice';

/** Above a workspace form: "Draft restored" (with Discard), or which result row is being fixed. */
export function EditorNotices<V>({
  start,
  session,
  onDiscard,
}: {
  start: Start<V>;
  session: Pick<WorkspaceSession<V>, 'draft'>;
  onDiscard(): void;
}) {
  const draft = useDraft(session.draft);
  const origin = start.origin;
  return (
    <>
      {start.restored ? (
        <DraftNotice savedAt={draft?.savedAt ?? null} onDiscard={onDiscard} />
      ) : null}
      {origin.type === 'result' ? (
        <div className="notice notice--info fix-notice" id={fixNoticeId}>
          <p>
            Fixing row {origin.row} of batch <code>{origin.batchId}</code>: correct it, then add it
            to a new batch.
          </p>
          {origin.message ? (
            <p>
              The VMS said: <q className="user-text">{origin.message}</q>
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** Beside the submit button while a tray item is being edited: back to a new, blank form. */
export function StopEditingButton({ onStop }: { onStop(): void }) {
  return (
    <button type="button" className="button button--secondary" onClick={onStop}>
      Stop editing
    </button>
  );
}
