import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { useFormEditorParts } from '@/core/batch/components/form-editor-parts';
import {
  AddedNote,
  WorkspaceFrame,
  WorkspaceLayout,
} from '@/core/batch/components/workspace-frame';
import { addToBatchLabel, useTrayTarget } from '@/core/batch/hooks/use-tray-target';
import type { WorkspaceSession } from '@/core/batch/hooks/use-workspace-session';
import { useDraftAutosave, useWorkspaceSession } from '@/core/batch/hooks/use-workspace-session';
import type { WireItem } from '@/core/batch/model/batch-kind';
import type { Incoming, Start } from '@/core/batch/model/drafts';
import { loadedOf, mergeOntoTemplate } from '@/core/batch/model/drafts';
import type { DateFormat, LoadedRecord, RequisitionForm } from '@/domain';
import {
  amendAsEdited,
  amendWire,
  blankSkillRow,
  loadedRecordOf,
  optionLabel,
  reqStatuses,
  requisitionCatalog,
  requisitionFormDefaults,
  requisitionFormPath,
  requisitionFormToWire,
  requisitionRecordToAmendWire,
  requisitionWireToForm,
} from '@/domain';
import { settingDefaults } from '@/domain/settings';
import { requisitionKind } from '@/features/requisitions/kind/requisition-kind';
import type { RequisitionMode } from '@/features/requisitions/model/form-layout';
import { rememberValues, typedValuesStore } from '@/features/requisitions/model/suggestions';
import { errorMessage } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { useOrg, useOrgScope } from '@/shared/config/org-context';
import { requisitionQueryOptions } from '@/shared/requisitions';
import { RequisitionFormView, useRequisitionForm } from './requisition-form';

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
  const target = useTrayTarget(requisitionKind, orgs.clientOrgId, start.origin);
  // An Amend loaded from the VMS sends only what the user changed (decision 003).
  const loaded = mode === 'amend' ? loadedOf(start.origin) : undefined;

  const onValid = (values: RequisitionForm) => {
    const full = requisitionFormToWire(values, dateFormat);
    typedValuesStore(orgs.clientOrgId).update((current) => rememberValues(current, full));
    autosave.discardPending();
    const name = [full.titlerole, full.clientinternalreq && `(${full.clientinternalreq})`]
      .filter(Boolean)
      .join(' ');
    const wire = loaded ? amendWire(loaded.values, full) : full;
    onAdded(target.put(wire, name || 'the requisition', loaded));
  };

  // Fixing a failed row: the field the VMS named is flagged with its message.
  const parts = useFormEditorParts<RequisitionForm>({
    form,
    start,
    target,
    catalog: requisitionCatalog,
    toPath: (key) => requisitionFormPath(key, start.values),
    toWire: (values) => requisitionFormToWire(values, dateFormat),
    fileName: 'requisition.json',
    autosave,
    session,
    onDiscard,
  });

  return (
    <RequisitionFormView
      form={form}
      mode={mode}
      orgs={orgs}
      dateFormat={dateFormat}
      loaded={loaded}
      onValid={onValid}
      {...parts}
    />
  );
}

function RequisitionWorkspace({
  mode,
  reqId,
}: {
  mode: RequisitionMode;
  reqId: string | undefined;
}) {
  const { clientOrgId, config } = useOrg();
  const orgs = useOrgScope();
  const dateFormat = config.dateFormat;
  const navigate = useNavigate();
  const location = useLocation();
  const record = useQuery({
    ...requisitionQueryOptions(orgs, reqId ?? ''),
    enabled: mode === 'amend' && reqId !== undefined,
  });
  const [added, setAdded] = useState<string | null>(() => addedNoteIn(location.state));
  const addedRef = useRef<HTMLDivElement | null>(null);

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
  // A loaded Amend's tray item holds only its changes; the form shows them on the loaded values.
  const fromWire = useCallback(
    (wire: WireItem, loaded?: LoadedRecord) =>
      requisitionWireToForm(loaded ? amendAsEdited(loaded.values, wire) : wire, dateFormat),
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
          origin: {
            type: 'record' as const,
            id: reqId,
            loaded: record.data ? loadedRecordOf(record.data) : undefined,
          },
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
  const heading = workspaceHeading(mode, start?.origin.type === 'tray-item', reqId);

  return (
    <WorkspaceFrame kind={requisitionKind} heading={heading} session={session}>
      {mode === 'amend' && amended ? (
        <p className="page__lead">
          <bdi className="user-text">{amended.fields.titlerole || 'Untitled'}</bdi> · client
          internal req <strong>{amended.fields.clientinternalreq || '–'}</strong> · status{' '}
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
      <AddedNote text={added} noteRef={addedRef} />
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
    </WorkspaceFrame>
  );
}

function workspaceHeading(mode: RequisitionMode, editing: boolean, reqId: string | undefined) {
  if (mode === 'insert') return editing ? 'Edit requisition' : 'New requisition';
  return reqId ? `Amend requisition ${reqId}` : 'Amend a requisition';
}

/**
 * The page's prerendered shell (decision 040): its heading, the form's first section, blank, and
 * the tray's frame. Nothing of the org, the draft or the batch: those are the browser's.
 */
export function RequisitionWorkspaceShell({ mode }: { mode: RequisitionMode }) {
  // No default values: as it hydrates, the form takes each field's value from the page, where
  // something may have been typed already, rather than blanking it (the app's form is given it).
  const form = useRequisitionForm();
  return (
    <WorkspaceLayout heading={workspaceHeading(mode, false, undefined)}>
      <RequisitionFormView
        form={form}
        mode={mode}
        orgs={noOrgs}
        dateFormat={settingDefaults.dateFormat}
        submitLabel={addToBatchLabel}
        onValid={() => {}}
        shell
      />
    </WorkspaceLayout>
  );
}

/** The shell draws only what depends on no org (the first section has no suggestions). */
const noOrgs: OrgScope = { clientOrgId: 0, vendorOrgId: 0 };

/** New requisition (Insert) and Amend: the form, its draft, and the batch tray beside it. */
export function RequisitionWorkspacePage({ mode }: { mode: RequisitionMode }) {
  const { reqId } = useParams();
  const { clientOrgId } = useOrg();
  // A new org, form or requisition is a new workspace: its own draft, decided afresh.
  return (
    <RequisitionWorkspace key={`${clientOrgId}:${mode}:${reqId ?? ''}`} mode={mode} reqId={reqId} />
  );
}
