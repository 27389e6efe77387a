import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { PortalNotification } from '@/domain/notifications';
import {
  markNotificationsRead,
  notificationsKey,
  notificationsQueryOptions,
} from '@/features/notifications/api/notifications';
import { errorMessage } from '@/shared/api/http';
import { formatDateTime } from '@/shared/lib/format';

/** The bell's accessible name: what a screen reader says of it. */
export function bellLabel(unread: number): string {
  if (unread === 0) return 'Notifications, none unread';
  return `${unread} unread ${unread === 1 ? 'notification' : 'notifications'}`;
}

export interface BellViewProps {
  /** Null before the first answer. */
  unread: number | null;
  items: readonly PortalNotification[];
  /** Why the notifications could not be read; null when they were. */
  problem: string | null;
  /** Following a notification's link: it is marked read. */
  onFollow(notification: PortalNotification): void;
  onMarkAllRead(): void;
  /** The panel was opened (the bell asks again then). */
  onOpen?(): void;
}

/**
 * The bell in the header: the unread count on a button that opens a panel of the newest
 * notifications, each a link to what it is about, and "Mark all read". Escape, or a click
 * elsewhere, closes the panel; Escape gives the focus back to the bell.
 */
export function BellView({
  unread,
  items,
  problem,
  onFollow,
  onMarkAllRead,
  onOpen,
}: BellViewProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const frame = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (event: PointerEvent) => {
      if (frame.current && !frame.current.contains(event.target as Node)) setOpen(false);
    };
    // Escape closes the panel wherever the focus is in it, and gives the focus back to the bell.
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const inside = frame.current?.contains(document.activeElement) ?? false;
      setOpen(false);
      if (inside) button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  const count = unread ?? 0;
  return (
    <div className="bell" ref={frame}>
      <button
        ref={button}
        type="button"
        className="bell__button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={bellLabel(count)}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
      >
        <svg className="bell__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" />
        </svg>
        {count > 0 ? (
          <span className="bell__badge" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </button>
      <div
        id={panelId}
        role="region"
        aria-label="Notifications"
        className="bell__panel"
        hidden={!open}
      >
        <div className="bell__head">
          <h2 className="bell__title">Notifications</h2>
          <button
            type="button"
            className="link-button"
            disabled={count === 0}
            onClick={onMarkAllRead}
          >
            Mark all read
          </button>
        </div>
        {problem ? (
          <p role="alert" className="notice notice--error">
            {problem}
          </p>
        ) : unread === null ? (
          <p>Reading your notifications…</p>
        ) : items.length === 0 ? (
          <p className="bell__empty">
            Nothing yet. When a batch you sent has settled at the VMS, it shows here.
          </p>
        ) : (
          <ul className="bell__list">
            {items.map((item) => (
              <li
                key={item.id}
                className={item.readAt ? 'bell__item' : 'bell__item bell__item--unread'}
              >
                <Link
                  to={item.link}
                  onClick={() => {
                    onFollow(item);
                    setOpen(false);
                  }}
                >
                  {item.readAt ? null : <span className="visually-hidden">Unread: </span>}
                  {item.title}
                </Link>
                <time className="bell__time" dateTime={item.createdAt}>
                  {formatDateTime(item.createdAt)}
                </time>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** The bell, reading the user's notifications from the portal and marking them read. */
export function NotificationBell() {
  const queryClient = useQueryClient();
  const query = useQuery(notificationsQueryOptions());
  const mark = (which: readonly number[] | 'all') => {
    void markNotificationsRead(which)
      .catch(() => undefined)
      .then(() => queryClient.invalidateQueries({ queryKey: notificationsKey }));
  };
  return (
    <BellView
      unread={query.data?.unread ?? null}
      items={query.data?.items ?? []}
      problem={query.isError && !query.data ? errorMessage(query.error) : null}
      onFollow={(item) => {
        if (!item.readAt) mark([item.id]);
      }}
      onMarkAllRead={() => mark('all')}
      onOpen={() => void query.refetch()}
    />
  );
}
