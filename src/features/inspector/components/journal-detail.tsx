import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { postBatch } from '@/core/batch/api/send-batch';
import { trayStore } from '@/core/batch/hooks/use-batch-tray';
import { recordSubmission } from '@/core/batch/hooks/use-submissions';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { addReplay, emptyTray } from '@/core/batch/model/tray-state';
import { memoryTray, sendTray, type TrayStoreLike } from '@/core/batch/send/send-tray';
import { SaveAsCases } from '@/core/suites/components/save-as-cases';
import type { JournalCurl, JournalDetail, JournalReveal } from '@/domain/journal';
import { fetchCurl, journalEntryQueryOptions, journalKeys } from '@/features/inspector/api/journal';
import { replayElements, whyNotReplayable } from '@/features/inspector/model/replay';
import { savedCaseItems } from '@/features/inspector/model/save-cases';
import { statusText, statusTone } from '@/features/inspector/model/status';
import { errorMessage } from '@/shared/api/http';
import { useCurrentConnection, useOrg } from '@/shared/config/org-context';
import { formatDateTime } from '@/shared/lib/format';
import { newId } from '@/shared/lib/ids';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { copyText } from '@/shared/ui/json-actions';
import { StatusBadge } from '@/shared/ui/status-badge';
import { CallList } from './call-list';
import type { CopyFormat } from './copy-call';
import { copyFormats, Copied } from './copy-call';
import { Body } from './journal-body';
import { PersonalReveal } from './personal-reveal';
import { ReplayComparison } from './replay-comparison';

/**
 * One recorded call in full, with Copy as (cURL, PowerShell, Node fetch), Send again, Edit and
 * send, and for a replay, Compare with original.
 */
export function JournalDetailView({
  id,
  kinds,
  onOpen,
  onFilterBatch,
}: {
  id: number;
  kinds: readonly BatchKind[];
  onOpen(id: number): void;
  onFilterBatch(batchId: string): void;
}) {
  const query = useQuery(journalEntryQueryOptions(id));
  const headingId = useId();
  // This one call revealed (decision 058): shown in full until another call is opened.
  const [revealed, setRevealed] = useState<JournalReveal | null>(null);
  const shown = revealed?.call.id === id ? revealed : null;
  return (
    <section className="inspector__detail" aria-labelledby={headingId}>
      <h2 id={headingId} tabIndex={-1}>
        Call #{id}
      </h2>
      {query.isPending ? <p aria-busy="true">Reading call #{id}…</p> : null}
      {query.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(query.error)}
        </p>
      ) : null}
      {query.data ? (
        <Detail
          key={shown ? 'revealed' : 'as-read'}
          entry={shown?.call ?? query.data}
          copies={shown?.copies ?? null}
          onRevealed={setRevealed}
          kinds={kinds}
          onOpen={onOpen}
          onFilterBatch={onFilterBatch}
        />
      ) : null}
    </section>
  );
}

function Detail({
  entry,
  copies,
  onRevealed,
  kinds,
  onOpen,
  onFilterBatch,
}: {
  entry: JournalDetail;
  /** The copies of a revealed call, in full; null: the server makes them when asked. */
  copies: JournalCurl | null;
  onRevealed(revealed: JournalReveal): void;
  kinds: readonly BatchKind[];
  onOpen(id: number): void;
  onFilterBatch(batchId: string): void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { setClientOrgId, vendorOrgId, config } = useOrg();
  const connection = useCurrentConnection();
  // The replay being sent, while it is not accepted: sent again, it goes with the same key, so a
  // lost answer is asked for rather than the batch sent twice.
  const replayTray = useRef<{ entryId: number; store: TrayStoreLike } | null>(null);
  const [copy, setCopy] = useState<{
    as: CopyFormat;
    text: string;
    snippet: string;
    copied: boolean;
  } | null>(null);
  const [comparing, setComparing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [replay, setReplay] = useState<{ ok: boolean; message: string } | null>(null);
  const kind = kinds.find((candidate) => candidate.postOperation === entry.operation);
  const notReplayable = whyNotReplayable(entry);
  const elements = entry.requestBody ? replayElements(entry.requestBody) : null;

  const copyAs = async (as: CopyFormat) => {
    try {
      const made = copies ?? (await fetchCurl(entry.id));
      const text = made[as];
      setCopy({ as, text, snippet: made.snippet, copied: await copyText(text) });
    } catch (error) {
      setReplay({ ok: false, message: errorMessage(error) });
    }
  };

  const sendAgain = async () => {
    setConfirming(false);
    if (!kind || !elements || entry.clientOrgId === null) return;
    // The recorded items as a tray of their own, sent as the workspaces send theirs.
    if (replayTray.current?.entryId !== entry.id)
      replayTray.current = {
        entryId: entry.id,
        store: memoryTray(
          addReplay(emptyTray, elements, entry.id, new Date().toISOString(), newId),
        ),
      };
    try {
      const sent = await sendTray({
        kind,
        store: replayTray.current.store,
        orgs: { clientOrgId: entry.clientOrgId, vendorOrgId: entry.vendorOrgId ?? vendorOrgId },
        connection,
        // The call's own path (its query as recorded), to the connection this page works on.
        path: entry.path,
        // The dialog just asked, naming a production VMS when it is one.
        productionConfirmed: () => true,
        post: postBatch,
        record: recordSubmission,
        newId,
        now: () => new Date(),
        waitMs: config.timeoutMs + 10_000,
      });
      replayTray.current = null;
      setReplay({
        ok: true,
        message: `Sent again: the VMS accepted it as batch ${sent.batchId}. Its results are under Submissions.`,
      });
    } catch (error) {
      setReplay({ ok: false, message: errorMessage(error) });
    }
    await queryClient.invalidateQueries({ queryKey: journalKeys.all });
  };

  const editAndSend = () => {
    if (!kind || !elements || entry.clientOrgId === null) return;
    const clientOrgId = entry.clientOrgId;
    trayStore(kind.id, clientOrgId).update((current) =>
      addReplay(current, elements, entry.id, new Date().toISOString(), newId),
    );
    setClientOrgId(clientOrgId);
    void navigate(kind.formPath(elements[0]?.wire ?? {}), { state: { editJson: true } });
  };

  return (
    <>
      <p>
        <strong>
          {entry.method} {entry.operation ?? 'unknown operation'}
        </strong>{' '}
        <StatusBadge tone={statusTone(entry)}>{statusText(entry)}</StatusBadge>
      </p>
      <dl className="facts inspector__facts">
        <div>
          <dt>Time</dt>
          <dd>
            <time dateTime={entry.at}>{formatDateTime(entry.at, { seconds: true })}</time>
          </dd>
        </div>
        <div>
          <dt>Path</dt>
          <dd className="user-text">
            <code>{entry.path}</code>
          </dd>
        </div>
        {entry.url ? (
          <div>
            <dt>VMS address</dt>
            <dd className="user-text">
              <code>{entry.url}</code>
            </dd>
          </div>
        ) : null}
        {entry.sentBy ? (
          <div>
            <dt>Sent by</dt>
            <dd className="user-text">{entry.sentBy.email}</dd>
          </div>
        ) : null}
        <div>
          <dt>Orgs</dt>
          <dd>
            client {entry.clientOrgId ?? '–'}, vendor {entry.vendorOrgId ?? '–'}
          </dd>
        </div>
        <div>
          <dt>Outcome</dt>
          <dd>
            {entry.outcome}
            {entry.errorCode ? ` (${entry.errorCode})` : ''}
            {entry.upstreamStatus !== null ? `, the VMS said ${entry.upstreamStatus}` : ''}
            {entry.replayed ? ', answered from the portal’s memory of this key' : ''}
          </dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{Math.round(entry.latencyMs)} ms</dd>
        </div>
        {entry.idempotencyKey ? (
          <div>
            <dt>Idempotency key</dt>
            <dd>
              <code>{entry.idempotencyKey}</code>
            </dd>
          </div>
        ) : null}
        {entry.batchId ? (
          <ActionFact term="Batch ID" onClick={() => onFilterBatch(entry.batchId ?? '')}>
            {entry.batchId}
          </ActionFact>
        ) : null}
        {entry.replayOf ? (
          <ActionFact term="Replay of" onClick={() => onOpen(entry.replayOf ?? 0)}>
            call #{entry.replayOf}
          </ActionFact>
        ) : null}
        {entry.unchecked ? (
          <div>
            <dt>Checks</dt>
            <dd>Sent without the portal’s local checks</dd>
          </div>
        ) : null}
      </dl>

      <PersonalReveal entry={entry} onRevealed={onRevealed} />

      <div className="button-row">
        {copyFormats.map((format) => (
          <button
            key={format.as}
            type="button"
            className="button button--secondary"
            onClick={() => void copyAs(format.as)}
          >
            Copy as {format.name}
          </button>
        ))}
        {entry.replayOf ? (
          <button
            type="button"
            className="button button--secondary"
            aria-expanded={comparing}
            onClick={() => setComparing((open) => !open)}
          >
            Compare with original
          </button>
        ) : null}
        {kind ? (
          <>
            <button
              type="button"
              className="button"
              disabled={notReplayable !== null || !elements || entry.clientOrgId === null}
              onClick={() => setConfirming(true)}
            >
              Send again
            </button>
            {entry.batchId && elements ? (
              <SaveAsCases kind={kind} items={() => savedCaseItems(kind, entry, vendorOrgId)} />
            ) : null}
            <button
              type="button"
              className="button button--secondary"
              disabled={notReplayable !== null || !elements}
              onClick={editAndSend}
            >
              Edit and send
            </button>
          </>
        ) : null}
      </div>
      {kind && notReplayable ? <p className="field__hint">{notReplayable}</p> : null}
      {replay ? (
        <p
          role={replay.ok ? 'status' : 'alert'}
          className={replay.ok ? 'notice notice--success' : 'notice notice--error'}
        >
          {replay.message}
        </p>
      ) : null}
      {copy ? <Copied copy={copy} /> : null}
      {comparing && entry.replayOf ? <ReplayComparison replay={entry} /> : null}

      <Body title="Request body" body={entry.requestBody} />
      <Body title="Response body" body={entry.responseBody} />
      {Object.keys(entry.responseHeaders).length > 0 ? (
        <details className="inspector__body-part">
          <summary>Response headers</summary>
          <dl className="facts">
            {Object.entries(entry.responseHeaders).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd className="user-text">{value}</dd>
              </div>
            ))}
          </dl>
        </details>
      ) : null}
      {entry.lateAnswer ? (
        <>
          <h3>The VMS’s late answer ({entry.lateAnswer.status})</h3>
          <Body title="Late answer body" body={entry.lateAnswer.body} />
        </>
      ) : null}
      {entry.related.length > 0 ? (
        <>
          <h3>Other calls about this batch</h3>
          <CallList calls={entry.related} onOpen={onOpen} />
        </>
      ) : null}
      {entry.replays.length > 0 ? (
        <>
          <h3>Sent again as</h3>
          <CallList calls={entry.replays} onOpen={onOpen} />
        </>
      ) : null}

      <ConfirmDialog
        open={confirming}
        title="Send this call to the VMS again?"
        confirmLabel="Send it again"
        onConfirm={() => void sendAgain()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          This sends the same {entry.itemCount ?? ''} {entry.itemCount === 1 ? 'item' : 'items'} to
          the VMS again as a new batch, signed anew: the VMS will process{' '}
          {entry.itemCount === 1 ? 'it' : 'them'} again, and may create{' '}
          {entry.itemCount === 1 ? 'a duplicate' : 'duplicates'}.
        </p>
        {connection?.production ? (
          <p>
            It goes to <strong>{connection.label}</strong>, a production VMS, where it reaches the
            client for real.
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}

/** A fact of the call whose value leads on: the calls of its batch, or the call it replays. */
function ActionFact({
  term,
  onClick,
  children,
}: {
  term: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>
        <button type="button" className="link-button" onClick={onClick}>
          {children}
        </button>
      </dd>
    </div>
  );
}
