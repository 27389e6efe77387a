import { useState } from 'react';
import type { BatchTray } from '@/core/batch/hooks/use-batch-tray';
import type { BatchKind, SentCheck } from '@/core/batch/model/batch-kind';
import type { LostSend } from '@/core/batch/model/tray-state';
import { itemsToSend } from '@/core/batch/model/tray-state';
import { errorMessage } from '@/shared/api/http';
import type { OrgScope } from '@/shared/api/vms';
import { countOf } from '@/shared/lib/format';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';

export interface LostSendNoticeProps {
  kind: BatchKind;
  orgs: OrgScope;
  lost: LostSend;
  tray: BatchTray;
  sending: boolean;
  onSendAgain(): void;
}

type Check =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'done'; result: SentCheck }
  | { state: 'failed'; message: string };

/**
 * A send whose answer never came (decision 002): the VMS may have the batch. Its items are
 * locked; the user sends them again safely (same key: the portal answers with the VMS's answer
 * and never sends twice), looks them up in the VMS, or, knowing the VMS does not have them,
 * sends them as a new batch.
 */
export function LostSendNotice({
  kind,
  orgs,
  lost,
  tray,
  sending,
  onSendAgain,
}: LostSendNoticeProps) {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [confirmNew, setConfirmNew] = useState(false);
  const items = itemsToSend(tray.state);
  const nouns = (count: number) => countOf(count, kind.noun.one, kind.noun.many);
  const reference = (id: string) => {
    const item = items.find((candidate) => candidate.id === id);
    return item ? kind.summarize(item.wire, item.loaded).reference || 'an item' : 'an item';
  };

  const lookUp = async () => {
    if (!kind.findSent) return;
    setCheck({ state: 'checking' });
    try {
      setCheck({ state: 'done', result: await kind.findSent(orgs, items, lost.at) });
    } catch (error) {
      setCheck({ state: 'failed', message: errorMessage(error) });
    }
  };

  return (
    <div role="alert" className="notice notice--warning lost-send">
      <h3 className="notice__title">The VMS may have received this batch</h3>
      <p>
        The answer to sending {nouns(items.length)} did not arrive, so nobody can tell yet whether
        the VMS has {items.length === 1 ? 'it' : 'them'}.{' '}
        {items.length === 1 ? 'It is' : 'They are'} locked so that nothing is sent twice.
      </p>
      <p className="lost-send__reason user-text">{lost.message}</p>
      <div className="button-row">
        <button type="button" className="button" disabled={sending} onClick={onSendAgain}>
          Send again safely
        </button>
        {kind.findSent ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={sending || check.state === 'checking'}
            onClick={() => void lookUp()}
          >
            Check the VMS
          </button>
        ) : null}
        <button
          type="button"
          className="button button--secondary"
          disabled={sending}
          onClick={() => setConfirmNew(true)}
        >
          Send as a new batch…
        </button>
      </div>
      <p className="field__hint">
        “Send again safely” sends the same batch with the same key: if the VMS has it, you get its
        answer and nothing is sent twice.
        {kind.findSent
          ? ''
          : ` The VMS offers no way to look ${kind.noun.many} up; if “Send again safely” cannot tell, check in the VMS itself.`}
      </p>
      <div role="status">
        {check.state === 'checking' ? `Looking for the ${kind.noun.many} in the VMS…` : null}
      </div>
      {check.state === 'failed' ? <p className="field__error">{check.message}</p> : null}
      {check.state === 'done' ? (
        <div className="lost-send__check">
          {check.result.arrived.length > 0 ? (
            <>
              <p>In the VMS already:</p>
              <ul>
                {check.result.arrived.map(({ id, evidence }) => (
                  <li key={id}>
                    <bdi className="user-text">{reference(id)}</bdi>: {evidence}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {check.result.missing.length > 0 ? (
            <p>
              Not found in the VMS:{' '}
              {check.result.missing.map((id, index) => (
                <span key={id}>
                  {index > 0 ? ', ' : null}
                  <bdi className="user-text">{reference(id)}</bdi>
                </span>
              ))}
              .
            </p>
          ) : null}
          <button
            type="button"
            className="button button--secondary"
            onClick={() => tray.settleLost(check.result.arrived.map(({ id }) => id))}
          >
            {check.result.missing.length === 0
              ? `Remove the ${nouns(check.result.arrived.length)} from the batch: they arrived`
              : check.result.arrived.length === 0
                ? `Unlock the ${nouns(check.result.missing.length)} to send them as a new batch`
                : `Remove the ${check.result.arrived.length} that arrived and unlock the other ${check.result.missing.length}`}
          </button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmNew}
        title="Send as a new batch?"
        confirmLabel="Unlock and send as new"
        onConfirm={() => {
          setConfirmNew(false);
          tray.settleLost([]);
        }}
        onCancel={() => setConfirmNew(false)}
      >
        If the VMS already has this batch, sending it as a new batch creates or changes the{' '}
        {kind.noun.many} a second time. Do this only when you know the VMS does not have them.
      </ConfirmDialog>
    </div>
  );
}
