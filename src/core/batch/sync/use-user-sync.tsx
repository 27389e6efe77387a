import { useEffect, useState } from 'react';
import type { SessionUser } from '@/domain/auth';
import { errorMessage } from '@/shared/api/http';
import { formatDateTime } from '@/shared/lib/format';
import { settleConflict, syncCollection } from '@/shared/sync/user-sync';
import { userDataSync } from './user-data';

const everyMs = 15_000;

interface SyncStatus {
  at: string | null;
  conflicts: Array<{ collection: string; key: string }>;
  problem: string | null;
}

/**
 * Keeps a signed-in user's drafts, submissions and unsent batches in step with the server: at once, every 15 s,
 * when the window comes back into focus and when the browser is back online. One sync at a time.
 */
function useUserSync(user: SessionUser): [SyncStatus, () => void] {
  const [status, setStatus] = useState<SyncStatus>({ at: null, conflicts: [], problem: null });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let running = false;
    let stopped = false;
    const sync = async () => {
      if (running || stopped) return;
      running = true;
      try {
        const conflicts: SyncStatus['conflicts'] = [];
        for (const adapter of userDataSync)
          for (const key of await syncCollection(user.id, adapter))
            conflicts.push({ collection: adapter.collection, key });
        if (!stopped) setStatus({ at: new Date().toISOString(), conflicts, problem: null });
      } catch (error) {
        if (!stopped) setStatus((current) => ({ ...current, problem: errorMessage(error) }));
      } finally {
        running = false;
      }
    };
    void sync();
    const timer = setInterval(() => void sync(), everyMs);
    const wake = () => void sync();
    addEventListener('focus', wake);
    addEventListener('online', wake);
    return () => {
      stopped = true;
      clearInterval(timer);
      removeEventListener('focus', wake);
      removeEventListener('online', wake);
    };
  }, [user.id, round]);
  return [status, () => setRound((value) => value + 1)];
}

const describe = (collection: string, key: string) =>
  collection === 'drafts'
    ? `Your draft ${key.split(':').slice(1).join(' · ')}`
    : collection === 'tray'
      ? `Your batch not yet sent (${key.split(':').slice(1).join(' · ')})`
      : `The record of batch ${key}`;

/**
 * The sync's state where the user sees it: when their work was last saved on the server, what
 * failed, and each record changed on two devices, with the choice of which to keep.
 */
export function UserSyncBar({ user }: { user: SessionUser }) {
  const [status, again] = useUserSync(user);
  return (
    <div className="user-sync" aria-live="polite">
      {status.problem ? (
        <p className="notice notice--warning">
          Your work is kept in this browser but could not be saved on the server just now (
          {status.problem}). It will be tried again.
        </p>
      ) : status.at ? (
        <p className="field__hint user-sync__at">
          Drafts, batches and submissions saved on the server at {formatDateTime(status.at)}.
        </p>
      ) : null}
      {status.conflicts.map(({ collection, key }) => {
        const adapter = userDataSync.find((entry) => entry.collection === collection);
        if (!adapter) return null;
        const choose = (keep: 'mine' | 'theirs') =>
          void settleConflict(user.id, adapter, key, keep).then(again);
        return (
          <div key={`${collection}:${key}`} role="alert" className="notice notice--warning">
            <p>
              {describe(collection, key)} was changed here and on another device. Both versions are
              kept; choose which one to go on with.
            </p>
            <div className="button-row">
              <button
                type="button"
                className="button button--secondary"
                onClick={() => choose('mine')}
              >
                Keep this device’s
              </button>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => choose('theirs')}
              >
                Take the other device’s
              </button>
            </div>
          </div>
        );
      })}
    </div>
  );
}
