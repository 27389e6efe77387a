import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useFormEditorParts } from '@/core/batch/components/form-editor-parts';
import { AddedNote, WorkspaceFrame, useAddedNote } from '@/core/batch/components/workspace-frame';
import { useSubmissions } from '@/core/batch/hooks/use-submissions';
import { useTrayTarget } from '@/core/batch/hooks/use-tray-target';
import { rowBeingFixed } from '@/core/batch/hooks/use-vms-flag';
import type {
  WorkspaceSession,
  WorkspaceSessionOptions,
} from '@/core/batch/hooks/use-workspace-session';
import { useDraftAutosave, useWorkspaceSession } from '@/core/batch/hooks/use-workspace-session';
import type { WireItem } from '@/core/batch/model/batch-kind';
import type { Start } from '@/core/batch/model/drafts';
import { mergeOntoTemplate } from '@/core/batch/model/drafts';
import type { CandidateForm, RequisitionContext } from '@/domain';
import {
  blankSkillResponseRow,
  candidateCatalog,
  candidateFormDefaults,
  candidateFormPath,
  candidateFormToWire,
  candidateWireToForm,
  todayIso,
} from '@/domain';
import { candidateKind } from '@/features/candidates/kind/candidate-kind';
import type { EarlierCandidate } from '@/features/candidates/model/candidate-warnings';
import { candidateWarnings } from '@/features/candidates/model/candidate-warnings';
import type {
  TargetProps,
  TargetRequisition,
} from '@/features/candidates/model/target-requisition';
import { targetRequisition } from '@/features/candidates/model/target-requisition';
import { useOrg, useOrgScope } from '@/shared/config/org-context';
import { formatDateTime } from '@/shared/lib/format';
import { requisitionQueryOptions } from '@/shared/requisitions';
import { LoadFailure } from '@/shared/ui/load-failure';
import { PageLoading } from '@/shared/ui/page-loading';
import type { WarningFields } from './candidate-form';
import { CandidateFormView, useCandidateForm } from './candidate-form';
import { RequisitionFacts } from './requisition-facts';
import { RequisitionPicker } from './requisition-picker';

const rowTemplates = { answers: { answer: '' }, skillResponses: blankSkillResponseRow() };

const earlier = (wire: WireItem, where: string): EarlierCandidate => ({
  requirementid: wire.requirementid ?? '',
  candemail: wire.candemail ?? '',
  where,
});

function CandidateEditor({
  start,
  requisition,
  session,
  onAdded,
  onDiscard,
}: {
  start: Start<CandidateForm>;
  requisition: TargetRequisition | null;
  session: WorkspaceSession<CandidateForm>;
  onAdded(note: string): void;
  onDiscard(): void;
}) {
  const { clientOrgId } = useOrg();
  const form = useCandidateForm(start.values, requisition?.shape);
  const autosave = useDraftAutosave(form, session.draft, start);
  const target = useTrayTarget(candidateKind, clientOrgId, start.origin);
  const submissions = useSubmissions();

  // The same e-mail to the same requisition: sent from this browser, or waiting in the batch.
  // A row being fixed (Fix, or Edit of a resend in the tray) is not its own duplicate: the VMS
  // answered Error to it.
  const fixing = rowBeingFixed(start.origin, target.tray.state.items);
  const submitted = useMemo(
    () =>
      submissions
        .filter((s) => s.kind === candidateKind.id && s.clientOrgId === clientOrgId)
        .flatMap((s) =>
          s.items.flatMap((wire, index) =>
            fixing?.batchId === s.batchId && fixing.row === index + 1
              ? []
              : [earlier(wire, `batch ${s.batchId}, ${formatDateTime(s.sentAt)}`)],
          ),
        ),
    [submissions, clientOrgId, fixing],
  );
  const trayItems = target.tray.state.items;
  const editingId = target.editingId;
  const inTray = useMemo(
    () =>
      trayItems.flatMap((item, index) =>
        item.id === editingId ? [] : [earlier(item.wire, `item ${index + 1} of the batch`)],
      ),
    [trayItems, editingId],
  );
  const warningsFor = useCallback(
    (candidate: WarningFields) =>
      candidateWarnings({
        candidate,
        requisition,
        today: todayIso(),
        submitted,
        inTray,
      }),
    [requisition, submitted, inTray],
  );

  const onValid = (values: CandidateForm) => {
    const wire = candidateFormToWire(values);
    autosave.discardPending();
    const name = [wire.firstname, wire.lastname].filter(Boolean).join(' ');
    onAdded(target.put(wire, name || 'the candidate'));
  };

  // Fixing a failed row: the field the VMS named is flagged with its message.
  const parts = useFormEditorParts<CandidateForm>({
    form,
    start,
    target,
    catalog: candidateCatalog,
    toPath: candidateFormPath,
    toWire: candidateFormToWire,
    fileName: 'candidate.json',
    autosave,
    session,
    onDiscard,
  });

  return (
    <CandidateFormView
      form={form}
      requisition={requisition}
      warningsFor={warningsFor}
      onValid={onValid}
      {...parts}
    />
  );
}

/**
 * The candidate form's session for one requisition: one draft per requisition (the rows follow
 * its skills and questions), and only items for that requisition are loaded into it.
 */
function sessionOptions(
  clientOrgId: number,
  reqId: string,
  shape: RequisitionContext | undefined,
): WorkspaceSessionOptions<CandidateForm> {
  // Unknown requisition: generic rows, added by the recruiter.
  const values = candidateFormDefaults(shape ?? { skillCount: 0, questionCount: 0 }, reqId);
  return {
    kind: candidateKind.id,
    clientOrgId,
    form: `requisition-${reqId}`,
    blank: { origin: { type: 'blank' }, values, label: 'a new form' },
    normalize: (stored) => ({
      ...mergeOntoTemplate(values, stored, rowTemplates),
      requirementid: reqId,
    }),
    fromWire: (wire) => candidateWireToForm(wire, shape),
    accepts: (wire) => (wire.requirementid ?? '').trim() === reqId,
  };
}

/** The candidate form for one requisition (known from the list, or typed by hand), beside the tray. */
function CandidateWorkspace({ reqId, requisition }: TargetProps) {
  const { clientOrgId } = useOrg();
  const note = useAddedNote();
  const shape = requisition?.shape;
  const options = useMemo(
    () => sessionOptions(clientOrgId, reqId, shape),
    [clientOrgId, reqId, shape],
  );
  const session = useWorkspaceSession<CandidateForm>(options);
  const start = session.start;

  return (
    <WorkspaceFrame
      kind={candidateKind}
      heading={`Submit a candidate to requisition ${reqId}`}
      session={session}
    >
      <RequisitionFacts reqId={reqId} requisition={requisition} />
      <AddedNote text={note.text} noteRef={note.noteRef} />
      {start ? (
        <CandidateEditor
          session={session}
          requisition={requisition}
          start={start}
          key={start.key}
          onAdded={(text) => {
            note.show(text);
            session.restart();
          }}
          onDiscard={() => session.restart()}
        />
      ) : null}
    </WorkspaceFrame>
  );
}

/** Loads the chosen requisition, then opens its workspace; a Req ID the list lacks is allowed. */
function CandidateTarget({ reqId }: { reqId: string }) {
  const { config } = useOrg();
  const orgs = useOrgScope();
  const record = useQuery(requisitionQueryOptions(orgs, reqId));
  const requisition = useMemo(
    () => (record.data ? targetRequisition(record.data, config.dateFormat) : null),
    [record.data, config.dateFormat],
  );
  if (record.isPending || record.isError) {
    return (
      <div className="page">
        <title>Candidates · VMS submission portal</title>
        <h1>Submit a candidate to requisition {reqId}</h1>
        {record.isError ? (
          <LoadFailure
            what={`Requisition ${reqId} could not be loaded`}
            error={record.error}
            onRetry={() => void record.refetch()}
          >
            <p>
              Your draft for it is kept. Try again, or{' '}
              <Link to="/candidates">choose another requisition</Link>.
            </p>
          </LoadFailure>
        ) : (
          <p aria-busy="true">Loading requisition {reqId}…</p>
        )}
      </div>
    );
  }
  return <CandidateWorkspace reqId={reqId} requisition={requisition} />;
}

export function CandidateWorkspacePage() {
  const [params] = useSearchParams();
  const { clientOrgId } = useOrg();
  const reqId = (params.get('reqId') ?? '').trim();
  if (/^\d+$/.test(reqId)) {
    // A new org or requisition is a new workspace: its own draft, decided afresh.
    return <CandidateTarget key={`${clientOrgId}:${reqId}`} reqId={reqId} />;
  }
  return (
    <div className="page">
      <ChooseRequisitionIntro />
      {reqId !== '' ? (
        <p role="alert" className="notice notice--error">
          “{reqId}” is not a Req ID: a Req ID is a whole number such as 40001. Search for the
          requisition below.
        </p>
      ) : null}
      <RequisitionPicker />
    </div>
  );
}

/** The top of the page where the requisition is chosen. */
function ChooseRequisitionIntro() {
  return (
    <>
      <title>Candidates · VMS submission portal</title>
      <h1>Submit a candidate</h1>
      <p className="page__lead">
        A candidate is submitted to one requisition, and the form asks what that requisition asks:
        its skills and its questions. Choose the requisition first, or use “Submit candidate” in the{' '}
        <Link to="/requisitions">requisition list</Link>. Many candidates at once:{' '}
        <Link to="/candidates/import">import them from a spreadsheet</Link>.
      </p>
    </>
  );
}

/**
 * The page's prerendered shell (decision 040): the top of the page where the requisition is
 * chosen (the one chosen in the address, if any, is the browser's).
 */
export function CandidateWorkspaceShell() {
  return (
    <div className="page">
      <ChooseRequisitionIntro />
      <PageLoading />
    </div>
  );
}
