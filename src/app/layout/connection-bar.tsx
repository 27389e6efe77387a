import { useId } from 'react';
import { connectionLabel, usableConnections } from '@/domain/portal-config';
import { switchConnection } from '@/shared/config/current-connection';
import { useOrg, useCurrentConnection } from '@/shared/config/org-context';
import { useSessionUser } from '@/shared/session/session';

/**
 * Which VMS the page works on, in the header of every page. With more than one the user may use,
 * a choice: switching reloads the page into the other connection, whose tray, drafts and lists
 * are its own.
 */
export function ConnectionBar() {
  const { config } = useOrg();
  const user = useSessionUser();
  const current = useCurrentConnection();
  const selectId = useId();
  const usable = usableConnections(config, user?.connections ?? null);
  if (!current || usable.length < 2) {
    return (
      <div className="org-bar__item">
        <span>VMS</span>{' '}
        <strong>{current ? connectionLabel(current) : config.upstream.label}</strong>
      </div>
    );
  }
  return (
    <div className="org-bar__item">
      <label htmlFor={selectId}>VMS connection</label>{' '}
      <select
        id={selectId}
        className={
          current.production
            ? 'connection-select connection-select--production'
            : 'connection-select'
        }
        value={current.name}
        onChange={(event) => switchConnection(event.target.value)}
      >
        {usable.map((connection) => (
          <option key={connection.name} value={connection.name}>
            {connectionLabel(connection)}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The warning no one can miss on a production connection: what is sent here reaches a client for
 * real. In words as well as colour.
 */
export function ProductionBanner() {
  const current = useCurrentConnection();
  if (!current?.production) return null;
  return (
    <p className="production-banner">
      <strong>Production: {current.label}.</strong> Batches you send here reach the client for real.
      Practise on a test connection first.
    </p>
  );
}
