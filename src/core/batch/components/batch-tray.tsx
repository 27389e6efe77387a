import { useIsMutating } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useId, useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useBatchTray } from '@/core/batch/hooks/use-batch-tray';
import { useItemChecks } from '@/core/batch/hooks/use-item-checks';
import { sendMutationKey } from '@/core/batch/hooks/use-latest-sent';
import { useLoadIntoForm } from '@/core/batch/hooks/use-load-into-form';
import { useSendBatch } from '@/core/batch/hooks/use-send-batch';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { itemIssues } from '@/core/batch/model/result-fields';
import type { Removed, TrayItem } from '@/core/batch/model/tray-state';
import { trayPayload } from '@/core/batch/model/tray-state';
import { needsProductionConfirmation } from '@/core/batch/send/send-tray';
import { SaveAsCases } from '@/core/suites/components/save-as-cases';
import {
  confirmProductionSends,
  productionSendConfirmed,
} from '@/shared/config/current-connection';
import { useCurrentConnection, useOrg, useOrgScope } from '@/shared/config/org-context';
import { countOf } from '@/shared/lib/format';
import { useMay } from '@/shared/session/session';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { BatchResultsSummary } from './batch-results';
import { CopyBatch } from './copy-batch';
import { JsonPreview } from './json-preview';
import { followNextResults } from './latest-results';
import { LostSendNotice } from './lost-send-notice';
import { TrayItemList } from './tray-item-list';

const JsonEditor = lazy(() => import('./json-editor'));

/** What an item kept as raw JSON says in the tray. */
const rawItemProblem =
  'Edited as raw JSON into something the portal cannot check (not an object of text values): it can go only in a send without local checks.';

export interface BatchTrayProps {
  kind: BatchKind;
  /** The tray item the form is editing, marked in the list. */
  editingItemId?: string | undefined;
}

/**
 * The batch tray of one kind for the current client org: the items waiting to be sent (with
 * their validity), edit / duplicate / remove, the exact JSON array, and Send. Items leave only
 * when the VMS accepted the batch; the results of the latest batch appear below.
 */
export function BatchTray({ kind, editingItemId }: BatchTrayProps) {
  const { clientOrgId, config } = useOrg();
  const orgs = useOrgScope();
  const tray = useBatchTray(kind.id, clientOrgId);
  const loadIntoForm = useLoadIntoForm(kind);
  const sender = useSendBatch(kind, orgs, config.timeoutMs);
  const sendingElsewhere =
    useIsMutating({ mutationKey: sendMutationKey(kind.id, clientOrgId) }) > 0;
  const sending = sender.isPending || sendingElsewhere;
  const [removed, setRemoved] = useState<Removed | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const reasonId = useId();

  const items = tray.state.items;
  const lost = tray.state.lost ?? null;
  const allWires = useMemo(() => items.map((item) => item.wire), [items]);
  const payload = useMemo(() => trayPayload(tray.state), [tray.state]);
  const heldCount = items.filter((item) => item.held).length;
  const ownChecks = useItemChecks(kind, allWires, config.dateFormat);
  // A raw item is never valid here: the portal cannot check what is not an object of text.
  const checks = useMemo(
    () =>
      ownChecks.map((problems, index) =>
        items[index]?.raw !== undefined ? [rawItemProblem, ...(problems ?? [])] : problems,
      ),
    [ownChecks, items],
  );
  // The inspector's "Edit and send" arrives with the editor open.
  const location = useLocation();
  const [editingJson, setEditingJson] = useState(
    (location.state as { editJson?: boolean } | null)?.editJson === true,
  );
  // A send without local checks: chosen for one send, then off again.
  const [unchecked, setUnchecked] = useState(false);
  const uncheckedId = useId();
  // Sends without local checks are QA's: recruiters fix their items instead.
  const mayProbe = useMay('qa');
  const invalidCount = checks.filter((problems) => problems !== null && problems.length > 0).length;
  const checkingCount = checks.filter((problems) => problems === null).length;

  const blockReason = lost
    ? 'The last send’s answer was lost: use “Send again safely” above, or settle it first.'
    : items.length === 0
      ? `The batch is empty: add ${kind.noun.many} from the form first.`
      : heldCount > 0
        ? `${countOf(heldCount, 'item was', 'items were')} changed in the VMS since loading: choose which values to keep first.`
        : checkingCount > 0
          ? `Checking ${countOf(checkingCount, kind.noun.one, kind.noun.many)}…`
          : invalidCount > 0 && !unchecked
            ? `${countOf(invalidCount, 'item needs', 'items need')} fixing before the batch can be sent: use Edit on ${invalidCount === 1 ? 'it' : 'them'}, or remove ${invalidCount === 1 ? 'it' : 'them'}.`
            : items.length > config.maxBatch
              ? `The batch holds ${items.length} items; the VMS takes at most ${config.maxBatch} at once. Remove some and send them in another batch.`
              : null;

  const nouns = (count: number) => countOf(count, kind.noun.one, kind.noun.many);
  const connection = useCurrentConnection();
  // A production connection's first send in the session asks first, naming where and how many.
  const [confirmingProduction, setConfirmingProduction] = useState(false);
  const sendNow = () => {
    setRemoved(null);
    sender.send({ unchecked });
    setUnchecked(false);
  };
  const send = () => {
    if (needsProductionConfirmation(connection, productionSendConfirmed)) {
      setConfirmingProduction(true);
      return;
    }
    sendNow();
  };

  // Stable callbacks, so a change to one item re-renders that item's row only.
  const onEdit = useCallback(
    (item: TrayItem, index: number) =>
      loadIntoForm({
        origin: { type: 'tray-item', itemId: item.id, loaded: item.loaded },
        wire: item.wire,
        label: `item ${index + 1} of the batch`,
      }),
    [loadIntoForm],
  );
  const { remove, revise } = tray;
  const onRemove = useCallback(
    (id: string) => {
      setRemoved(remove(id) ?? null);
      headingRef.current?.focus();
    },
    [remove],
  );
  const onResolve = useCallback(
    (id: string, key: string, keep: 'mine' | 'theirs') => {
      const resolve = kind.resolveHeld;
      if (resolve) revise(id, (current) => resolve(current, key, keep));
    },
    [kind, revise],
  );

  return (
    <section className="tray" id="batch-panel" aria-labelledby="tray-title">
      {connection?.production ? (
        <ConfirmDialog
          open={confirmingProduction}
          title={`Send to ${connection.label}, a production VMS?`}
          confirmLabel={`Send ${nouns(items.length)} to ${connection.label}`}
          destructive
          onConfirm={() => {
            confirmProductionSends(connection.name);
            setConfirmingProduction(false);
            sendNow();
          }}
          onCancel={() => setConfirmingProduction(false)}
        >
          <p>
            {nouns(items.length)} will go to <strong>{connection.label}</strong>, where they reach
            the client for real. Later sends on this connection in this session go without asking.
          </p>
        </ConfirmDialog>
      ) : null}
      <h2 id="tray-title" className="tray__title" ref={headingRef} tabIndex={-1}>
        Batch to send
      </h2>
      <p className="tray__count">
        {items.length === 0
          ? `No ${kind.noun.many} yet. Fill in the form and choose “Add to batch”.`
          : `${nouns(items.length)}${invalidCount > 0 ? `, ${invalidCount} to fix` : ''}`}
      </p>

      {tray.state.replayOf ? (
        <p className="notice notice--info">
          This batch sends call{' '}
          <Link to={`/inspector?id=${tray.state.replayOf}`}>#{tray.state.replayOf}</Link> again, as
          you edit it; the inspector will show it as its replay.
        </p>
      ) : null}

      {lost ? (
        <LostSendNotice
          kind={kind}
          orgs={orgs}
          lost={lost}
          tray={tray}
          sending={sending}
          onSendAgain={() => sender.send()}
        />
      ) : null}

      {items.length > 0 ? (
        <TrayItemList
          kind={kind}
          items={items}
          checks={checks}
          editingItemId={editingItemId}
          lockedIds={lost?.itemIds}
          sending={sending}
          tray={tray}
          onEdit={onEdit}
          onRemove={onRemove}
          onResolve={onResolve}
        />
      ) : null}

      <div role="status" className="tray__undo">
        {removed ? (
          <>
            Removed {kind.summarize(removed.item.wire).reference || `item ${removed.index + 1}`}.{' '}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                tray.restore(removed);
                setRemoved(null);
              }}
            >
              Undo
            </button>
          </>
        ) : null}
      </div>

      <div className="tray__send">
        <button
          type="button"
          className="button"
          disabled={sending || blockReason !== null}
          aria-describedby={blockReason ? reasonId : undefined}
          onClick={send}
        >
          {sending
            ? 'Sending…'
            : `Send batch${items.length > 0 ? ` (${nouns(items.length)})` : ''}${unchecked ? ' without local checks' : ''}`}
        </button>
        {invalidCount > 0 && !lost && mayProbe ? (
          <div className="tray__unchecked">
            <label className="checkbox" htmlFor={uncheckedId}>
              <input
                id={uncheckedId}
                type="checkbox"
                checked={unchecked}
                disabled={sending}
                onChange={(event) => setUnchecked(event.target.checked)}
              />{' '}
              Send without local checks (QA)
            </label>
            {unchecked ? (
              <p className="notice notice--warning">
                The next send skips the portal’s checks, so the VMS sees the{' '}
                {countOf(invalidCount, 'invalid item', 'invalid items')} as they are and answers for
                them. The portal server’s own guards still apply. This is for one send only.
              </p>
            ) : null}
          </div>
        ) : null}
        {!lost && !sending ? <CopyBatch kind={kind} items={items} /> : null}
        {items.length > 0 && !lost ? (
          <div className="button-row">
            <SaveAsCases
              kind={kind}
              label="Save the batch as cases…"
              items={() =>
                items.map((item, index) => ({
                  item: item.wire,
                  expect: null,
                  origin: `item ${index + 1} of a batch`,
                }))
              }
            />
          </div>
        ) : null}
        {blockReason && items.length > 0 ? (
          <p id={reasonId} className="field__hint">
            {blockReason}
          </p>
        ) : null}
        <div role="status" className="tray__sending">
          {sending ? `Sending ${nouns(items.length)} to the VMS…` : null}
        </div>
        {sender.isError && !lost ? (
          <div role="alert" className="notice notice--error">
            <h3 className="notice__title">The batch was not sent</h3>
            <p>{sender.error.message}</p>
            <p>
              {items.length === 0
                ? 'Nothing was lost.'
                : `${items.length === 1 ? `The ${kind.noun.one} is` : `All ${nouns(items.length)} are`} still in the batch. When the problem is solved, choose “Send batch” again: the portal makes sure the same batch is not sent twice.`}
            </p>
          </div>
        ) : null}
      </div>

      {items.length > 0 && editingJson ? (
        <Suspense fallback={<p aria-busy="true">Opening the JSON editor…</p>}>
          <JsonEditor
            initial={JSON.stringify(payload, null, 2)}
            label={`JSON to be sent, editable (${nouns(items.length)})`}
            validate={(wire) => itemIssues(kind, wire, config.dateFormat)}
            onApply={(elements) => {
              tray.replaceFromJson(
                elements.map((element) =>
                  element.kind === 'raw'
                    ? { wire: element.wire, raw: element.value }
                    : { wire: element.wire },
                ),
              );
              setEditingJson(false);
            }}
            onCancel={() => setEditingJson(false)}
          />
        </Suspense>
      ) : items.length > 0 ? (
        <>
          <JsonPreview
            value={payload}
            summary={`JSON to be sent (${nouns(items.length)})`}
            label="JSON to be sent"
            fileName={`${kind.id}-batch-${new Date().toISOString().slice(0, 10)}.json`}
          />
          {!lost ? (
            <button
              type="button"
              className="button button--secondary button--small"
              disabled={sending}
              onClick={() => setEditingJson(true)}
            >
              Edit the JSON
            </button>
          ) : null}
        </>
      ) : null}

      {sender.isSuccess ? (
        <div className="tray__sent">
          <div role="status" className="notice notice--success">
            <h3 className="notice__title">Batch accepted</h3>
            <p>
              The VMS accepted {nouns(sender.data.submission.itemCount)} as batch{' '}
              <code>{sender.data.batchId}</code>. Each item’s result shows above the form as the VMS
              processes it; all batches are under <Link to="/submissions">Submissions</Link>.
            </p>
            {sender.data.notes.map((note) => (
              <p key={note} className="user-text">
                {note}
              </p>
            ))}
          </div>
          <BatchResultsSummary kind={kind} submission={sender.data.submission} />
        </div>
      ) : null}

      {/* On a narrow screen the panel is below the long form: a bar at the bottom of the screen
          keeps the batch and its send one tap away (hidden where the panel is beside the form). */}
      <div className="tray-bar">
        <a href="#batch-panel" className="tray-bar__link">
          Batch ({items.length})
        </a>
        <button
          type="button"
          className="button button--small"
          disabled={sending || blockReason !== null}
          aria-describedby={blockReason && items.length > 0 ? reasonId : undefined}
          onClick={() => {
            // The view stays while it is sent; its results, when they come, take it and focus.
            followNextResults();
            send();
          }}
        >
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </section>
  );
}
