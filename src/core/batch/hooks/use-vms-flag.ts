import { useEffect, useMemo, useState } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import type { DraftOrigin } from '@/core/batch/model/drafts';
import type { Submission } from '@/core/batch/model/submissions-state';
import type { TrayItem } from '@/core/batch/model/tray-state';
import type { FieldDef } from '@/domain';
import { fieldNamedIn } from '@/domain';
import type { FormProblem } from '@/shared/form/field-ids';

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
 * inline, and the returned problem goes in the error summary, for as long as it still holds what
 * the VMS refused. `refused` is the item as it was sent (null when the batch's items were not
 * kept: the field's value when the form started stands for it); `toWire` turns the form's values
 * into what would be sent, so the comparison holds over a reload of the draft, whose values are
 * already the corrected ones. `toPath` places a wire key on the form (`skilldescription3` →
 * `skills.2.description`).
 */
export function useVmsFlag<V extends FieldValues>(
  form: UseFormReturn<V>,
  message: string | undefined,
  catalog: readonly FieldDef[],
  toPath: (key: string) => string,
  refused: Readonly<Record<string, string>> | null = null,
  toWire: ((values: V) => Readonly<Record<string, string>>) | null = null,
): FormProblem | null {
  const flagged = useMemo(() => {
    if (!message) return null;
    const key = fieldNamedIn(message, catalog);
    return key ? { key, name: toPath(key), message: `The VMS said: ${message}` } : null;
    // toPath depends on the values the form started with, which `message` comes with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [message, catalog]);
  const [fixed, setFixed] = useState<string | null>(null);

  useEffect(() => {
    if (!flagged) return;
    const name = flagged.name as FieldPath<V>;
    const original = JSON.stringify(form.getValues(name));
    const refusedValue = refused?.[flagged.key];
    // Still what the VMS refused: compared in what is sent when the refused item is known.
    const stillRefused = () =>
      refusedValue !== undefined && toWire
        ? (toWire(form.getValues())[flagged.key] ?? '') === refusedValue
        : JSON.stringify(form.getValues(name)) === original;
    const show = () => {
      if (stillRefused()) {
        form.setError(name, { type: 'vms', message: flagged.message });
        setFixed(null);
      } else {
        if (form.getFieldState(name).error?.type === 'vms') form.clearErrors(name);
        setFixed(flagged.name);
      }
    };
    show();
    return form.subscribe({ name, formState: { values: true }, callback: show });
    // `refused` and `toWire` are read when the flag is set up; they do not change while fixing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, flagged]);

  return flagged && fixed !== flagged.name
    ? { name: flagged.name, message: flagged.message }
    : null;
}

/** The item as the VMS refused it, when the batch that sent it is kept with its items. */
export function refusedItem(
  origin: DraftOrigin,
  trayItems: readonly TrayItem[],
  submissions: readonly Submission[],
): Readonly<Record<string, string>> | null {
  const row = rowBeingFixed(origin, trayItems);
  if (!row) return null;
  return submissions.find((entry) => entry.batchId === row.batchId)?.items[row.row - 1] ?? null;
}

/** Where the "Fixing row n" notice is: EditorNotices gives it this id. */
export const fixNoticeId = 'fixing-row-notice';

/**
 * Fix moves the user to what needs fixing: once, when a refused item is loaded (not when its
 * draft is restored), focus goes to the field the VMS named, which carries the VMS's words; the
 * "Fixing row n" notice stays in view above it (it sticks to the top of the screen while the form
 * scrolls under it).
 */
export function useRevealFix(fixing: boolean, flagged: FormProblem | null): void {
  const name = flagged?.name ?? null;
  useEffect(() => {
    if (!fixing || name === null) return;
    let cancelled = false;
    // The long form draws its lower sections just after its first paint: the field may come a
    // few frames later (about two seconds at most).
    void (async () => {
      for (let frame = 0; frame < 120 && !cancelled; frame += 1) {
        const field = document.getElementsByName(name)[0];
        if (field instanceof HTMLElement) {
          reveal(field, document.getElementById(fixNoticeId));
          return;
        }
        await new Promise((resolve) => requestAnimationFrame(resolve));
      }
    })();
    return () => {
      cancelled = true;
    };
    // Once per loaded item: the editor is mounted afresh for each.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

/**
 * Focuses `field`: with the notice above it when both fit on the screen, else the field below the
 * notice, which then sticks to the top of the screen.
 */
function reveal(field: HTMLElement, notice: HTMLElement | null): void {
  field.focus({ preventScroll: true });
  const top = notice ? notice.getBoundingClientRect().top + window.scrollY : null;
  const bottom = field.getBoundingClientRect().bottom + window.scrollY;
  if (top !== null && bottom - top <= window.innerHeight - 24) {
    window.scrollTo({ top: Math.max(0, top - 12) });
    return;
  }
  // The notice's height is kept clear above the field, so the notice never covers it.
  const clear = (notice?.getBoundingClientRect().height ?? 0) + 24;
  const fieldTop = field.getBoundingClientRect().top + window.scrollY;
  window.scrollTo({ top: Math.max(0, fieldTop - clear - (window.innerHeight - clear) / 3) });
}
