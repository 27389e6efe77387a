import { useId, useState } from 'react';
import { trayStore } from '@/core/batch/hooks/use-batch-tray';
import type { BatchKind } from '@/core/batch/model/batch-kind';
import { planCopy } from '@/core/batch/model/copy-batch';
import { addItems, type TrayItem } from '@/core/batch/model/tray-state';
import {
  clientOrgLabel,
  connectionLabel,
  usableConnections,
  type ConnectionSettings,
} from '@/domain/portal-config';
import { currentConnection, switchConnection } from '@/shared/config/current-connection';
import { useOrg } from '@/shared/config/org-context';
import { countOf } from '@/shared/lib/format';
import { newId } from '@/shared/lib/ids';
import { useSessionUser } from '@/shared/session/session';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { ErrorNotice } from '@/shared/ui/error-notice';

interface Copied {
  target: ConnectionSettings;
  clientOrgId: number;
  count: number;
  amendsLeft: number;
  needFixing: number;
}

/**
 * "Copy this batch to…": the only way work crosses from one VMS connection to another. The
 * items are added to the other connection's tray for a client org it acts for, their dates in
 * its format and checked by its rules; this tray keeps them. They are sent from there, after
 * switching to it, under its own confirmation.
 */
export function CopyBatch({ kind, items }: { kind: BatchKind; items: readonly TrayItem[] }) {
  const { config, clientOrgId } = useOrg();
  const user = useSessionUser();
  const here = currentConnection();
  const targets = usableConnections(config, user?.connections ?? null).filter(
    (connection) => connection.name !== here,
  );
  const [open, setOpen] = useState(false);
  const [targetName, setTargetName] = useState(targets[0]?.name ?? '');
  const target = targets.find((connection) => connection.name === targetName) ?? targets[0];
  const [chosenOrg, setChosenOrg] = useState<number | null>(null);
  const [copied, setCopied] = useState<Copied | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { target: useId(), org: useId() };
  if (!target || items.length === 0)
    return copied ? <CopiedNote copied={copied} kind={kind} /> : null;

  const orgs = target.clientOrgIds.filter((org) => !user || user.clientOrgIds.includes(org));
  const targetOrg =
    chosenOrg !== null && orgs.includes(chosenOrg)
      ? chosenOrg
      : orgs.includes(clientOrgId)
        ? clientOrgId
        : (orgs[0] ?? null);
  const nouns = (count: number) => countOf(count, kind.noun.one, kind.noun.many);

  const copy = async () => {
    if (targetOrg === null) return;
    setProblem(null);
    const plan = planCopy(
      kind,
      items,
      config.dateFormat,
      target.dateFormat,
      new Date().toISOString(),
      newId,
    );
    const store = trayStore(kind.id, targetOrg, target.name);
    await store.ready;
    store.update((current) => addItems(current, plan.copied));
    if (!(await store.flush())) {
      setProblem(
        `The browser would not store the copy, so nothing was copied to ${target.label}. Free some space (Settings) and try again.`,
      );
      return;
    }
    setOpen(false);
    setCopied({
      target,
      clientOrgId: targetOrg,
      count: plan.copied.length,
      amendsLeft: plan.amendsLeft,
      needFixing: plan.needFixing,
    });
  };

  return (
    <>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => {
          setCopied(null);
          setOpen(true);
        }}
      >
        Copy this batch to {targets.length === 1 ? target.label : 'another connection'}…
      </button>
      <ConfirmDialog
        open={open}
        title={`Copy this batch to ${target.label}`}
        confirmLabel={`Copy ${nouns(items.length)}`}
        onConfirm={() => void copy()}
        onCancel={() => setOpen(false)}
      >
        {targets.length > 1 ? (
          <p>
            <label htmlFor={ids.target}>Copy to</label>{' '}
            <select
              id={ids.target}
              value={target.name}
              onChange={(event) => setTargetName(event.target.value)}
            >
              {targets.map((connection) => (
                <option key={connection.name} value={connection.name}>
                  {connectionLabel(connection)}
                </option>
              ))}
            </select>
          </p>
        ) : null}
        {targetOrg === null ? (
          <p role="alert" className="notice notice--error">
            {target.label} acts for no client org you may work for, so there is nowhere to copy to.
          </p>
        ) : (
          <p>
            <label htmlFor={ids.org}>Client org there</label>{' '}
            <select
              id={ids.org}
              value={targetOrg}
              onChange={(event) => setChosenOrg(Number(event.target.value))}
            >
              {orgs.map((org) => (
                <option key={org} value={org}>
                  {clientOrgLabel(target, org)}
                </option>
              ))}
            </select>
          </p>
        )}
        <p>
          The {nouns(items.length)} are added to the batch of {target.label}
          {target.production ? ', a production VMS,' : ''} and checked by its rules there; dates are
          written as it reads them. This batch keeps them. Nothing is sent until you send it there.
        </p>
        <ErrorNotice message={problem} />
      </ConfirmDialog>
      {copied ? <CopiedNote copied={copied} kind={kind} /> : null}
    </>
  );
}

function CopiedNote({ copied, kind }: { copied: Copied; kind: BatchKind }) {
  const { setClientOrgId } = useOrg();
  const nouns = (count: number) => countOf(count, kind.noun.one, kind.noun.many);
  return (
    <div role="status" className="notice notice--success">
      <p>
        Copied {nouns(copied.count)} to the batch of {copied.target.label} (client org{' '}
        {copied.clientOrgId}).
        {copied.needFixing > 0
          ? ` ${countOf(copied.needFixing, 'needs', 'need')} fixing there before it can be sent.`
          : ''}
        {copied.amendsLeft > 0
          ? ` ${countOf(copied.amendsLeft, 'Amend stays', 'Amends stay')} here: an Amend changes a requisition of this VMS only.`
          : ''}
      </p>
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          // Opened on the org the batch was copied for.
          setClientOrgId(copied.clientOrgId);
          switchConnection(copied.target.name);
        }}
      >
        Switch to {copied.target.label}
      </button>
    </div>
  );
}
