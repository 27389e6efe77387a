import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { DateFormat, RequisitionForm } from '../../domain';
import {
  blankSkillRow,
  optionLabel,
  reqStatuses,
  requisitionFormDefaults,
  requisitionFormToWire,
  requisitionRecordToAmendWire,
  requisitionWireToForm,
} from '../../domain';
import { BatchTray } from '../../features/batch/components/batch-tray';
import { DraftNotice } from '../../features/batch/components/draft-notice';
import { FormJsonPreview } from '../../features/batch/components/form-json-preview';
import { ReplaceFormDialog } from '../../features/batch/components/replace-form-dialog';
import { useBatchTray } from '../../features/batch/hooks/use-batch-tray';
import type { WorkspaceSession } from '../../features/batch/hooks/use-workspace-session';
import {
  useDraft,
  useDraftAutosave,
  useWorkspaceSession,
} from '../../features/batch/hooks/use-workspace-session';
import type { WireItem } from '../../features/batch/model/batch-kind';
import type { Incoming, Start } from '../../features/batch/model/drafts';
import { mergeOntoTemplate } from '../../features/batch/model/drafts';
import { requisitionQueryOptions } from '../../shared/api/requisitions';
import {
  RequisitionFormView,
  useRequisitionForm,
} from '../../features/requisitions/components/requisition-form';
import type { RequisitionMode } from '../../features/requisitions/model/form-layout';
import { rememberValues, typedValuesStore } from '../../features/requisitions/model/suggestions';
import { errorMessage } from '../../shared/api/http';
import type { OrgScope } from '../../shared/api/vms';
import { useOrg } from '../../shared/config/org-context';
import { countOf } from '../../shared/lib/format';
import { requisitionKind } from '../kinds/requisition-kind';

const rowTemplates = { skills: blankSkillRow(), questions: { description: '' } };

function blankForm(mode: RequisitionMode, clientOrgId: number): RequisitionForm {
  return { ...requisitionFormDefaults(mode === 'amend' ? 'A' : 'I'), orgid: String(clientOrgId) };
}

/** The "added to the batch" note survives the move from an Amend to a blank Amend form. */
function addedNoteIn(state: unknown): string | null {
  if (state && typeof state === 'object' && 'added' in state && typeof state.added === 'string')
    return state.added;
  return null;
}

function RequisitionEditor({
  start,
  mode,
  orgs,
  dateFormat,
  session,
  onAdded,
  onDiscard,
}: {
  start: Start<RequisitionForm>;
  mode: RequisitionMode;
  orgs: OrgScope;
  dateFormat: DateFormat;
  session: WorkspaceSession<RequisitionForm>;
  onAdded(note: string): void;
  onDiscard(): void;
}) {
  const form = useRequisitionForm(start.values);
  const autosave = useDraftAutosave(form, session.draft, start);
  const draft = useDraft(session.draft);
  const tray = useBatchTray(requisitionKind.id, orgs.clientOrgId);
  const origin = start.origin;
  const editingId =
    origin.type === 'tray-item' && tray.state.items.some((item) => item.id === origin.itemId)
      ? origin.itemId
      : null;
  const editingIndex = editingId ? tray.state.items.findIndex((item) => item.id === editingId) : -1;

  const onValid = (values: RequisitionForm) => {
    const wire = requisitionFormToWire(values, dateFormat);
    const count = tray.state.items.length + (editingId ? 0 : 1);
    if (editingId) tray.replace(editingId, wire);
    else tray.add(wire);
    typedValuesStore(orgs.clientOrgId).update((current) => rememberValues(current, wire));
    autosave.discardPending();
    const name = [wire.titlerole, wire.clientinternalreq && `(${wire.clientinternalreq})`]
      .filter(Boolean)
      .join(' ');
    onAdded(
      `${editingId ? 'Updated' : 'Added'} ${name || 'the requisition'} ${editingId ? 'in' : 'to'} the batch, which now holds ${countOf(count, 'requisition', 'requisitions')}. Send it from the batch panel, or fill in another.`,
    );
  };

  const preview = useCallback(
    (toWire: (values: RequisitionForm) => unknown) => (
      <FormJsonPreview<RequisitionForm> toWire={toWire} fileName="requisition.json" />
    ),
    [],
  );

  return (
    <>
      {start.restored ? (
        <DraftNotice savedAt={draft?.savedAt ?? null} onDiscard={onDiscard} />
      ) : null}
      {origin.type === 'result' ? (
        <p className="notice notice--info">
          Fixing row {origin.row} of batch <code>{origin.batchId}</code>: correct it, then add it to
          a new batch.
        </p>
      ) : null}
      <RequisitionFormView
        form={form}
        mode={mode}
        orgs={orgs}
        dateFormat={dateFormat}
        submitLabel={editingId ? `Update item ${editingIndex + 1} in the batch` : 'Add to batch'}
        onValid={onValid}
        preview={preview}
        actions={
          editingId ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                autosave.discardPending();
                session.restart();
              }}
            >
              Stop editing
            </button>
          ) : null
        }
      />
    </>
  );
}

function RequisitionWorkspace({
  mode,
  reqId,
}: {
  mode: RequisitionMode;
  reqId: string | undefined;
}) {
  const { clientOrgId, vendorOrgId, config } = useOrg();
  const orgs = useMemo(() => ({ clientOrgId, vendorOrgId }), [clientOrgId, vendorOrgId]);
  const dateFormat = config.dateFormat;
  const navigate = useNavigate();
  const location = useLocation();
  const record = useQuery({
    ...requisitionQueryOptions(orgs, reqId ?? ''),
    enabled: mode === 'amend' && reqId !== undefined,
  });
  const [added, setAdded] = useState<string | null>(() => addedNoteIn(location.state));
  const addedRef = useRef<HTMLDivElement>(null);

  const blank = useMemo<Incoming<RequisitionForm>>(
    () => ({
      origin: { type: 'blank' },
      values: blankForm(mode, clientOrgId),
      label: 'a new form',
    }),
    [mode, clientOrgId],
  );
  const normalize = useCallback(
    (stored: unknown) => mergeOntoTemplate(blank.values, stored, rowTemplates),
    [blank],
  );
  const fromWire = useCallback(
    (wire: WireItem) => requisitionWireToForm(wire, dateFormat),
    [dateFormat],
  );
  const recordValues = useMemo(
    () =>
      record.data
        ? requisitionWireToForm(requisitionRecordToAmendWire(record.data), dateFormat)
        : undefined,
    [record.data, dateFormat],
  );
  const source =
    mode === 'amend' && reqId !== undefined
      ? {
          origin: { type: 'record' as const, id: reqId },
          label: `requisition ${reqId}`,
          values: recordValues,
        }
      : undefined;
  const accepts = useCallback(
    (wire: WireItem) => (wire.requesttype === 'A') === (mode === 'amend'),
    [mode],
  );

  const session = useWorkspaceSession<RequisitionForm>({
    kind: requisitionKind.id,
    clientOrgId,
    form: mode,
    normalize,
    blank,
    fromWire,
    source,
    accepts,
  });
  const start = session.start;

  const onAdded = (text: string) => {
    setAdded(text);
    session.restart();
    // The Amend of one requisition is done: the page becomes a blank Amend.
    if (mode === 'amend' && reqId !== undefined)
      void navigate('/requisitions/amend', { replace: true, state: { added: text } });
    setTimeout(() => addedRef.current?.focus(), 0);
  };

  const onDiscard = () => {
    const original = source && recordValues ? { ...source, values: recordValues } : undefined;
    session.restart(original);
  };

  const amended = record.data;
  const heading =
    mode === 'insert'
      ? start?.origin.type === 'tray-item'
        ? 'Edit requisition'
        : 'New requisition'
      : reqId
        ? `Amend requisition ${reqId}`
        : 'Amend a requisition';

  return (
    <div className="workspace">
      <title>{`${heading} · VMS submission portal`}</title>
      <div className="workspace__main">
        <h1>{heading}</h1>
        {mode === 'amend' && amended ? (
          <p className="page__lead">
            {amended.fields.titlerole || 'Untitled'} · client internal req{' '}
            <strong>{amended.fields.clientinternalreq || '–'}</strong> · status{' '}
            <strong>
              {optionLabel(reqStatuses, amended.fields.reqstatus) ?? amended.fields.reqstatus}
            </strong>
            . The form holds its current values; change what should change.
          </p>
        ) : mode === 'amend' && !reqId ? (
          <p className="page__lead">
            Type the client internal req (or the VMS Req ID) of the requisition to change, and only
            the fields to change; or choose{' '}
            <Link to="/requisitions">Amend on a requisition in the list</Link>.
          </p>
        ) : null}
        <div ref={addedRef} tabIndex={-1} role="status" className="added-note">
          {added ? <p className="notice notice--success">{added}</p> : null}
        </div>
        {mode === 'amend' && reqId && record.isError && !start ? (
          <div role="alert" className="notice notice--error">
            <p>
              Requisition {reqId} could not be loaded: {errorMessage(record.error)}
            </p>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void record.refetch()}
            >
              Try again
            </button>
          </div>
        ) : null}
        {mode === 'amend' && reqId && record.data === null && !start ? (
          <div role="alert" className="notice notice--error">
            <p>
              Client org {clientOrgId} has no requisition with Req ID {reqId}. Check the number, or
              choose one from the <Link to="/requisitions">list</Link>.
            </p>
          </div>
        ) : null}
        {start ? (
          <RequisitionEditor
            key={start.key}
            start={start}
            mode={mode}
            orgs={orgs}
            dateFormat={dateFormat}
            session={session}
            onAdded={onAdded}
            onDiscard={onDiscard}
          />
        ) : record.isPending && reqId ? (
          <p aria-busy="true">Loading requisition {reqId}…</p>
        ) : null}
      </div>
      <aside className="workspace__tray" aria-label="Batch">
        <BatchTray
          kind={requisitionKind}
          editingItemId={start?.origin.type === 'tray-item' ? start.origin.itemId : undefined}
        />
      </aside>
      <ReplaceFormDialog
        label={session.ask?.label ?? null}
        onReplace={session.replaceWithIncoming}
        onKeep={session.keepCurrent}
      />
    </div>
  );
}

/** New requisition (Insert) and Amend: the form, its draft, and the batch tray beside it. */
export default function RequisitionWorkspaceRoute({ mode }: { mode: RequisitionMode }) {
  const { reqId } = useParams();
  const { clientOrgId } = useOrg();
  // A new org, form or requisition is a new workspace: its own draft, decided afresh.
  return (
    <RequisitionWorkspace key={`${clientOrgId}:${mode}:${reqId ?? ''}`} mode={mode} reqId={reqId} />
  );
}
