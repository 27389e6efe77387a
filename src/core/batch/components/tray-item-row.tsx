import type { ReactNode, Ref } from 'react';
import { memo } from 'react';
import type { BatchKind, WireItem } from '@/core/batch/model/batch-kind';
import type { TrayItem } from '@/core/batch/model/tray-state';
import { StatusBadge } from '@/shared/ui/status-badge';

export interface TrayItemRowProps {
  kind: BatchKind;
  item: TrayItem;
  index: number;
  /** null: still being checked. */
  problems: readonly string[] | null;
  editing: boolean;
  /** Part of a send whose answer was lost: nothing may change it (decision 002). */
  locked: boolean;
  sending: boolean;
  /** Measures the drawn row (the list is virtualized). */
  measureRef?: Ref<HTMLLIElement> | undefined;
  onEdit(item: TrayItem, index: number): void;
  onRemove(id: string): void;
  /** Resolves a held field: keep the user's value, or take the VMS's. */
  onResolve(id: string, key: string, keep: 'mine' | 'theirs'): void;
  onSplit(id: string, wires: readonly WireItem[]): void;
  onDuplicate(id: string): void;
}

function SmallButton({
  disabled,
  ariaLabel,
  onClick,
  children,
}: {
  disabled: boolean;
  ariaLabel?: string;
  onClick(): void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="button button--secondary button--small"
      disabled={disabled}
      aria-label={ariaLabel}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/**
 * One item of the tray: what it is, what it changes, whether it may go, and its actions.
 * Memoized: its props are the item, its result and stable callbacks, so it re-renders only when
 * it changes (or its number does).
 */
export const TrayItemRow = memo(function TrayItemRow({
  kind,
  item,
  index,
  problems,
  editing,
  locked,
  sending,
  measureRef,
  onEdit,
  onRemove,
  onResolve,
  onSplit,
  onDuplicate,
}: TrayItemRowProps) {
  const summary = kind.summarize(item.wire, item.loaded);
  const changes = kind.changes?.(item) ?? [];
  const advice = locked ? null : (kind.advice?.(item.wire) ?? null);
  const name = `item ${index + 1}${summary.reference ? `, ${summary.reference}` : ''}`;
  const disabled = sending || locked;
  return (
    <li className="tray-item" ref={measureRef} data-index={index} value={index + 1}>
      <div className="tray-item__head">
        <span className="tray-item__badge" title={summary.badgeLabel}>
          <span aria-hidden="true">{summary.badge}</span>
          <span className="visually-hidden">{summary.badgeLabel}</span>
        </span>
        <bdi className="tray-item__reference user-text">
          {summary.reference || '(no reference)'}
        </bdi>
        <bdi className="tray-item__title user-text">{summary.title || '(no title)'}</bdi>
      </div>
      {item.loaded ? (
        changes.length > 0 ? (
          <ul className="tray-item__changes" aria-label={`Changes in ${name}`}>
            {changes.map((change) => (
              <li key={change.label}>
                {change.label}: “<bdi className="user-text">{change.from}</bdi>” → “
                <bdi className="user-text">{change.to}</bdi>”
              </li>
            ))}
          </ul>
        ) : (
          <p className="tray-item__changes">No changes: the Amend would change nothing.</p>
        )
      ) : null}
      {item.resendOf ? (
        <p className="tray-item__resend">
          Resends row {item.resendOf.row} of batch <code>{item.resendOf.batchId}</code>
          {item.resendOf.message ? (
            <>
              ; the VMS said: <q className="user-text">{item.resendOf.message}</q>
            </>
          ) : null}
        </p>
      ) : null}
      <div className="tray-item__status">
        {locked ? <StatusBadge tone="pending">Outcome unknown</StatusBadge> : null}
        {editing ? <StatusBadge tone="pending">Editing</StatusBadge> : null}{' '}
        {item.held ? (
          <StatusBadge tone="error">Changed in the VMS</StatusBadge>
        ) : problems === null ? (
          <StatusBadge tone="pending">Checking</StatusBadge>
        ) : problems.length === 0 && item.asRefused ? (
          <>
            <StatusBadge tone="warning">Needs your correction</StatusBadge>
            <span className="tray-item__problem user-text">
              {' '}
              It is as the VMS refused it: edit what its message names before sending it again.
            </span>
          </>
        ) : problems.length === 0 ? (
          <StatusBadge tone="success">Ready</StatusBadge>
        ) : (
          <>
            <StatusBadge tone="error">Needs fixing</StatusBadge>
            <span className="tray-item__problem user-text"> {problems[0]}</span>
          </>
        )}
      </div>
      {item.held ? (
        <div className="tray-item__held" role="group" aria-label={`Decide changes for ${name}`}>
          <p>
            Someone changed this in the VMS after you loaded it. For each field, keep your value or
            take the one the VMS has now:
          </p>
          <ul>
            {item.held.conflicts.map((conflict) => (
              <li key={conflict.key}>
                <strong>{conflict.label}</strong>: yours “
                <bdi className="user-text">{conflict.mine}</bdi>”, now in the VMS “
                <bdi className="user-text">{conflict.theirs}</bdi>” (was “
                <bdi className="user-text">{conflict.loaded}</bdi>”){' '}
                <span className="button-row button-row--compact">
                  <SmallButton
                    disabled={disabled}
                    onClick={() => onResolve(item.id, conflict.key, 'mine')}
                  >
                    Keep mine
                  </SmallButton>
                  <SmallButton
                    disabled={disabled}
                    onClick={() => onResolve(item.id, conflict.key, 'theirs')}
                  >
                    Take the VMS’s
                  </SmallButton>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {advice ? (
        <div className="notice notice--warning tray-item__advice">
          <p>{advice.message}</p>
          <SmallButton disabled={disabled} onClick={() => onSplit(item.id, advice.fix(item.wire))}>
            {advice.fixLabel}
          </SmallButton>
        </div>
      ) : null}
      <div className="button-row button-row--compact">
        <SmallButton
          disabled={disabled}
          ariaLabel={`Edit ${name}`}
          onClick={() => onEdit(item, index)}
        >
          Edit
        </SmallButton>
        <SmallButton
          disabled={disabled}
          ariaLabel={`Duplicate ${name}`}
          onClick={() => onDuplicate(item.id)}
        >
          Duplicate
        </SmallButton>
        <SmallButton
          disabled={disabled}
          ariaLabel={`Remove ${name}`}
          onClick={() => onRemove(item.id)}
        >
          Remove
        </SmallButton>
      </div>
    </li>
  );
});
