import { startTransition, useEffect, useMemo, useState } from 'react';
import { addManyToTray, trayStore, useBatchTray } from '@/core/batch/hooks/use-batch-tray';
import { useSubmissions } from '@/core/batch/hooks/use-submissions';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { importWorker } from '@/core/import/api/import-worker';
import {
  applyImportPatch,
  createImportSession,
  initialImportView,
  type ImportSession as ModelImportSession,
  type ImportView,
} from '@/core/import/model/import-session';
import { knownIdentities } from '@/core/import/model/known-items';
import { templatesStore } from '@/core/import/model/templates';
import type { OpenOptions } from '@/core/import/worker/import-api';
import type { MappingTemplate, SheetRequisition } from '@/domain';
import {
  notSubmittableText,
  recordNotSubmittable,
  requisitionRecordShape,
  todayIso,
} from '@/domain';
import { workScope } from '@/shared/config/current-connection';
import { useOrgScope } from '@/shared/config/org-context';
import type { PortalConfig } from '@/shared/config/portal-config';
import { newId } from '@/shared/lib/ids';
import { useRequisitionList } from '@/shared/requisitions';
import { storageKey, useLocalStore } from '@/shared/storage/local-store';
import { downloadText } from '@/shared/ui/json-actions';

/**
 * What the import page shows and can do: one file at a time, per kind and client org. Its actions
 * are the session's own (model/import-session.ts); what the hook keeps in step for it (options,
 * restoring, re-checks as the batch and the list change) stays inside.
 */
export interface ImportSession
  extends
    ImportView,
    Omit<
      ModelImportSession,
      'setOptions' | 'room' | 'restore' | 'knownChanged' | 'requisitionsChanged'
    > {
  templates: MappingTemplate[];
  /** How many rows the batch can take now. */
  room: number;
  /** The page that shows the batch (and sends it). */
  batchPath: string;
}

/**
 * The import page's session (model/import-session.ts) with what it shows in React state, and
 * what it checks rows against (the batch, the submissions, the client's requisitions) read from
 * their stores as they change.
 */
export function useImportSession(
  kind: BatchKind,
  clientOrgId: number,
  config: PortalConfig,
): ImportSession {
  const worker = importWorker();
  const tray = useBatchTray(kind.id, clientOrgId, { suspend: false });
  const submissions = useSubmissions();
  const templateStore = templatesStore(kind.id, clientOrgId);
  const templates = useLocalStore(templateStore);
  const [view, setView] = useState<ImportView>(initialImportView);

  // The client org's requisitions (the browser's copy, refreshed): new requisitions must not
  // repeat their client internal reqs, rows naming a requisition are checked against theirs.
  const records = useRequisitionList(useOrgScope()).data;
  const known = useMemo(
    () => knownIdentities(kind.id, clientOrgId, tray.state.items, submissions, records),
    [kind.id, clientOrgId, tray.state.items, submissions, records],
  );
  const requisitionField = kind.sheet.requisitionField;
  const requisitions = useMemo(() => {
    if (requisitionField === null || !records) return undefined;
    const today = todayIso();
    return new Map<string, SheetRequisition>(
      records.map((record) => [
        record.reqId,
        {
          shape: requisitionRecordShape(record),
          notSubmittable: notSubmittableText(
            recordNotSubmittable(record, config.dateFormat, today),
          ),
        },
      ]),
    );
  }, [requisitionField, records, config.dateFormat]);
  const storeKey = storageKey('import', kind.id, workScope(clientOrgId));
  const options: OpenOptions = useMemo(
    () => ({
      kind: kind.id,
      dateFormat: config.dateFormat,
      org: String(clientOrgId),
      storeKey,
      templates,
      known,
      requisitions,
    }),
    [kind.id, config.dateFormat, clientOrgId, storeKey, templates, known, requisitions],
  );

  // One session per page (the page is remounted for another kind or client org).
  const [session] = useState(() => {
    const store = trayStore(kind.id, clientOrgId);
    return createImportSession({
      worker,
      kind,
      maxBatch: config.maxBatch,
      options,
      tray: {
        count: () => store.get().items.length,
        add: (wires) => addManyToTray(store, wires, newId, new Date().toISOString()),
      },
      templates: templateStore,
      download: downloadText,
      show: (patch, slices) => {
        const apply = () => setView((current) => applyImportPatch(current, patch));
        if (slices) startTransition(apply);
        else apply();
      },
    });
  });
  useEffect(() => session.setOptions(options), [session, options]);

  // The import kept from before (a reload, another visit).
  useEffect(() => {
    void session.restore();
  }, [session]);

  const hasFile = view.opened !== null;
  useEffect(() => {
    if (hasFile) void session.knownChanged();
  }, [session, known, hasFile]);
  useEffect(() => {
    if (hasFile) void session.requisitionsChanged();
  }, [session, requisitions, hasFile]);

  return {
    ...view,
    templates,
    room: Math.max(0, config.maxBatch - tray.state.items.length),
    batchPath: kind.formPath(tray.state.items[0]?.wire ?? {}),
    open: session.open,
    chooseSheet: session.chooseSheet,
    setColumn: session.setColumn,
    setDateOrder: session.setDateOrder,
    applyTemplate: session.applyTemplate,
    saveTemplate: session.saveTemplate,
    editCell: session.editCell,
    replaceInColumn: session.replaceInColumn,
    addValid: session.addValid,
    validRows: session.validRows,
    exportErrors: session.exportErrors,
    discard: session.discard,
  };
}
