import { useEffect, useMemo, useState } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type { FieldDef } from '../../../domain';
import { fieldNamedIn } from '../../../domain';
import type { FormProblem } from '../../../shared/form/field-ids';
import type { DraftOrigin } from '../model/drafts';
import type { TrayItem } from '../model/tray-state';

/**
 * The failed row the form is fixing, with what the VMS said of it: Fix on a result row, or Edit
 * on a tray item that resends one. Null for any other form.
 */
export function rowBeingFixed(
  origin: DraftOrigin,
  trayItems: readonly TrayItem[],
): { batchId: string; row: number; message?: string | undefined } | null {
  if (origin.type === 'result') return origin;
  if (origin.type === 'tray-item')
    return trayItems.find((item) => item.id === origin.itemId)?.resendOf ?? null;
  return null;
}

/** What the VMS said about the item in the form, if it is being fixed. */
export const vmsMessageFor = (origin: DraftOrigin, trayItems: readonly TrayItem[]) =>
  rowBeingFixed(origin, trayItems)?.message || undefined;

/**
 * When the VMS's message names a field (by wire name or label), that field carries the message
 * inline, and the returned problem goes in the error summary, until the user changes the field.
 * `toPath` places a wire key on the form (`skilldescription3` → `skills.2.description`).
 */
export function useVmsFlag<V extends FieldValues>(
  form: UseFormReturn<V>,
  message: string | undefined,
  catalog: readonly FieldDef[],
  toPath: (key: string) => string,
): FormProblem | null {
  const flagged = useMemo(() => {
    if (!message) return null;
    const key = fieldNamedIn(message, catalog);
    return key ? { name: toPath(key), message: `The VMS said: ${message}` } : null;
    // toPath depends on the values the form started with, which `message` comes with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [message, catalog]);
  const [changed, setChanged] = useState<string | null>(null);

  useEffect(() => {
    if (!flagged) return;
    const name = flagged.name as FieldPath<V>;
    const original = JSON.stringify(form.getValues(name));
    form.setError(name, { type: 'vms', message: flagged.message });
    const unsubscribe = form.subscribe({
      name,
      formState: { values: true },
      callback: () => {
        if (JSON.stringify(form.getValues(name)) === original) return;
        form.clearErrors(name);
        setChanged(flagged.name);
        unsubscribe();
      },
    });
    return unsubscribe;
  }, [form, flagged]);

  return flagged && changed !== flagged.name ? flagged : null;
}
