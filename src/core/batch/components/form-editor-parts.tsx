import type { ReactNode } from 'react';
import { useCallback } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useSubmissions } from '@/core/batch/hooks/use-submissions';
import {
  refusedItem,
  useRevealFix,
  useVmsFlag,
  vmsMessageFor,
} from '@/core/batch/hooks/use-vms-flag';
import type { WorkspaceSession } from '@/core/batch/hooks/use-workspace-session';
import type { Start } from '@/core/batch/model/drafts';
import type { TrayItem } from '@/core/batch/model/tray-state';
import type { FieldDef } from '@/domain';
import type { FormProblem } from '@/shared/form/field-ids';
import { EditorNotices, StopEditingButton } from './editor-notices';
import { FormJsonPreview } from './form-json-preview';

/**
 * What every payload's form editor hangs around its form: above it, "Draft restored" (with
 * Discard, which calls `onDiscard`) or which result row is being fixed; the field the VMS
 * refused, flagged with its message and revealed when a failed row is loaded by Fix (see
 * `useVmsFlag`); the live
 * JSON preview (named after the payload); the submit button's label (add to the batch, or
 * update the tray item being edited); and, while a tray item is being edited, "Stop editing",
 * which drops the pending draft save and starts a fresh form.
 */
export function useFormEditorParts<V extends FieldValues>({
  form,
  start,
  target,
  catalog,
  toPath,
  toWire,
  fileName,
  autosave,
  session,
  onDiscard,
}: {
  form: UseFormReturn<V>;
  start: Start<V>;
  target: {
    tray: { state: { items: readonly TrayItem[] } };
    editingId: string | null;
    submitLabel: string;
  };
  catalog: readonly FieldDef[];
  toPath: (key: string) => string;
  toWire: (values: V) => Readonly<Record<string, string>>;
  fileName: string;
  autosave: { discardPending(): void };
  session: { restart(): void } & Pick<WorkspaceSession<V>, 'draft'>;
  onDiscard(): void;
}): {
  notices: ReactNode;
  flagged: FormProblem | null;
  preview: (toWire: (values: V) => unknown) => ReactNode;
  actions: ReactNode;
  submitLabel: string;
} {
  const trayItems = target.tray.state.items;
  const submissions = useSubmissions();
  const flagged = useVmsFlag(
    form,
    vmsMessageFor(start.origin, trayItems),
    catalog,
    toPath,
    refusedItem(start.origin, trayItems, submissions),
    toWire,
  );
  useRevealFix(start.origin.type === 'result' && !start.restored, flagged);

  const preview = useCallback(
    (toWire: (values: V) => unknown) => <FormJsonPreview<V> toWire={toWire} fileName={fileName} />,
    [fileName],
  );
  const actions = target.editingId ? (
    <StopEditingButton
      onStop={() => {
        autosave.discardPending();
        session.restart();
      }}
    />
  ) : null;
  const notices = <EditorNotices start={start} session={session} onDiscard={onDiscard} />;
  return { notices, flagged, preview, actions, submitLabel: target.submitLabel };
}
