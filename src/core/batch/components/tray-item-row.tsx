import type { ReactNode } from 'react';
import { StatusBadge } from '../../../shared/ui/status-badge';
import type { BatchTray } from '../hooks/use-batch-tray';
import type { BatchKind } from '../model/batch-kind';
import type { TrayItem } from '../model/tray-state';

export interface TrayItemRowProps {
  kind: BatchKind;
  item: TrayItem;
  index: number;
  problems: readonly string[];
  editing: boolean;
  /** Part of a send whose answer was lost: nothing may change it (decision 002). */
  locked: boolean;
  sending: boolean;
  tray: BatchTray;
  onEdit(): void;
  onRemove(): void;
  /** Resolves a held field: keep the user's value, or take the VMS's. */
  onResolve(key: string, keep: 'mine' | 'theirs'): void;
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

/** One item of the tray: what it is, what it changes, whether it may go, and its actions. */
export function TrayItemRow({
  kind,
  item,
  index,
  problems,
  editing,
  locked,
  sending,
  tray,
  onEdit,
  onRemove,
  onResolve,
}: TrayItemRowProps) {
  const summary = kind.summarize(item.wire, item.loaded);
  const changes = kind.changes?.(item) ?? [];
  const advice = locked ? null : (kind.advice?.(item.wire) ?? null);
  const name = `item ${index + 1}${summary.reference ? `, ${summary.reference}` : ''}`;
  const disabled = sending || locked;
  return (
    <li className="tray-item">
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
      <div className="tray-item__status">
        {locked ? <StatusBadge tone="pending">Outcome unknown</StatusBadge> : null}
        {editing ? <StatusBadge tone="pending">Editing</StatusBadge> : null}{' '}
        {item.held ? (
          <StatusBadge tone="error">Changed in the VMS</StatusBadge>
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
                  <SmallButton disabled={disabled} onClick={() => onResolve(conflict.key, 'mine')}>
                    Keep mine
                  </SmallButton>
                  <SmallButton
                    disabled={disabled}
                    onClick={() => onResolve(conflict.key, 'theirs')}
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
          <SmallButton
            disabled={disabled}
            onClick={() => tray.split(item.id, advice.fix(item.wire))}
          >
            {advice.fixLabel}
          </SmallButton>
        </div>
      ) : null}
      <div className="button-row button-row--compact">
        <SmallButton disabled={disabled} ariaLabel={`Edit ${name}`} onClick={onEdit}>
          Edit
        </SmallButton>
        <SmallButton
          disabled={disabled}
          ariaLabel={`Duplicate ${name}`}
          onClick={() => tray.duplicate(item.id)}
        >
          Duplicate
        </SmallButton>
        <SmallButton disabled={disabled} ariaLabel={`Remove ${name}`} onClick={onRemove}>
          Remove
        </SmallButton>
      </div>
    </li>
  );
}
