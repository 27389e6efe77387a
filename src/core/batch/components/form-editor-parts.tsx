import type { ReactNode } from 'react';
import { useCallback } from 'react';
import type { FieldValues } from 'react-hook-form';
import { StopEditingButton } from './editor-notices';
import { FormJsonPreview } from './form-json-preview';

/**
 * What every payload's form editor hangs around its form: the live JSON preview (named after
 * the payload) and, while a tray item is being edited, "Stop editing", which drops the pending
 * draft save and starts a fresh form.
 */
export function useFormEditorParts<V extends FieldValues>({
  fileName,
  editing,
  autosave,
  session,
}: {
  fileName: string;
  editing: boolean;
  autosave: { discardPending(): void };
  session: { restart(): void };
}): { preview: (toWire: (values: V) => unknown) => ReactNode; actions: ReactNode } {
  const preview = useCallback(
    (toWire: (values: V) => unknown) => <FormJsonPreview<V> toWire={toWire} fileName={fileName} />,
    [fileName],
  );
  const actions = editing ? (
    <StopEditingButton
      onStop={() => {
        autosave.discardPending();
        session.restart();
      }}
    />
  ) : null;
  return { preview, actions };
}
