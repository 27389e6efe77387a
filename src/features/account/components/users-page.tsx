import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import type { Role, UserSummary } from '@/domain/auth';
import { emailSchema, roleLabels, roles } from '@/domain/auth';
import { clientOrgLabel, connectionLabel, deploymentClientOrgIds } from '@/domain/portal-config';
import {
  createUser,
  endUserSessions,
  updateUser,
  usersKey,
  usersQueryOptions,
} from '@/features/account/api/account';
import { errorMessage } from '@/shared/api/http';
import { useOrg } from '@/shared/config/org-context';
import { formatDateTime } from '@/shared/lib/format';
import { TableHead } from '@/shared/ui/data-table';
import { ErrorNotice } from '@/shared/ui/error-notice';

/** The page's heading (its prerendered shell shows it too). */
export const usersHeading = 'Users';

/** /users (admins): who may use the portal, with which role, for which client orgs. */
export function UsersPage() {
  const { config } = useOrg();
  const orgs = deploymentClientOrgIds(config.connections);
  const queryClient = useQueryClient();
  const users = useQuery(usersQueryOptions());
  const id = useId();
  const [invite, setInvite] = useState<{ email: string; link: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: createUser,
    onSuccess: async (created) => {
      setInvite({ email: created.user.email, link: `${location.origin}${created.invitePath}` });
      await queryClient.invalidateQueries({ queryKey: usersKey });
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  const onInvite = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const data = new FormData(event.currentTarget);
    const email = emailSchema.safeParse(String(data.get('email') ?? ''));
    if (!email.success) {
      setProblem(email.error.issues[0]?.message ?? 'Write an e-mail address.');
      return;
    }
    const role = String(data.get('role') ?? 'recruiter') as Role;
    const clientOrgIds = data.getAll('org').map(Number);
    const connections = data.getAll('connection').map(String);
    if (role !== 'admin' && clientOrgIds.length === 0) {
      setProblem('Choose at least one client org this user may act for.');
      return;
    }
    if (role !== 'admin' && connections.length === 0) {
      setProblem('Choose at least one VMS connection this user may use.');
      return;
    }
    create.mutate({ email: email.data, role, clientOrgIds, connections });
  };

  return (
    <div className="page">
      <title>{`${usersHeading} · VMS submission portal`}</title>
      <h1>{usersHeading}</h1>
      <p className="page__lead">
        Who may use this portal, with which role, for which client orgs. A new user gets a link to
        set their own password; you never see or choose it.
      </p>
      <section aria-labelledby={`${id}-invite`}>
        <h2 id={`${id}-invite`}>Invite a user</h2>
        <form className="users__invite" onSubmit={onInvite}>
          <label htmlFor={`${id}-email`}>E-mail</label>
          <input id={`${id}-email`} name="email" type="email" required />
          <fieldset>
            <legend>Role</legend>
            {roles.map((role) => (
              <label key={role} className="checkbox">
                <input
                  type="radio"
                  name="role"
                  value={role}
                  defaultChecked={role === 'recruiter'}
                />{' '}
                {roleLabels[role]}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Client orgs</legend>
            {orgs.map((org) => (
              <label key={org} className="checkbox">
                <input type="checkbox" name="org" value={org} /> {clientOrgLabel(config, org)}
              </label>
            ))}
          </fieldset>
          {config.connections.length > 1 ? (
            <fieldset>
              <legend>VMS connections</legend>
              {config.connections.map((connection) => (
                <label key={connection.name} className="checkbox">
                  <input
                    type="checkbox"
                    name="connection"
                    value={connection.name}
                    defaultChecked={!connection.production}
                  />{' '}
                  {connectionLabel(connection)}
                </label>
              ))}
            </fieldset>
          ) : (
            config.connections.map((connection) => (
              <input
                key={connection.name}
                type="hidden"
                name="connection"
                value={connection.name}
              />
            ))
          )}
          <ErrorNotice message={problem} />
          <button type="submit" className="button" disabled={create.isPending}>
            Invite
          </button>
        </form>
        {invite ? (
          <div role="status" className="notice notice--success">
            <p>
              {invite.email} is invited. Give them this link (valid 72 hours, once); it is not shown
              again:
            </p>
            <p>
              <code className="user-text">{invite.link}</code>
            </p>
          </div>
        ) : null}
      </section>
      <section aria-labelledby={`${id}-list`}>
        <h2 id={`${id}-list`}>Everyone</h2>
        {users.isError ? (
          <p role="alert" className="notice notice--error">
            {errorMessage(users.error)}
          </p>
        ) : null}
        {users.data ? (
          <table className="inspector__table">
            <TableHead
              columns={[
                { heading: 'E-mail' },
                { heading: 'Role' },
                { heading: 'Client orgs' },
                ...(config.connections.length > 1 ? [{ heading: 'VMS connections' }] : []),
                { heading: 'Last sign-in' },
                { heading: 'Actions', headingHidden: true },
              ]}
            />
            <tbody>
              {users.data.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </tbody>
          </table>
        ) : null}
      </section>
    </div>
  );
}

function UserRow({ user }: { user: UserSummary }) {
  const { config } = useOrg();
  const orgs = deploymentClientOrgIds(config.connections);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (change: Parameters<typeof updateUser>[1]) => updateUser(user.id, change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey }),
  });
  const endSessions = useMutation({ mutationFn: () => endUserSessions(user.id) });
  return (
    <tr>
      <td className="user-text">
        {user.email}
        {user.invited ? <span className="inspector__flag"> invited</span> : null}
        {user.disabled ? <span className="inspector__flag"> disabled</span> : null}
      </td>
      <td>
        <select
          aria-label={`Role of ${user.email}`}
          value={user.role}
          onChange={(event) => save.mutate({ role: event.target.value as Role })}
        >
          {roles.map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </select>
      </td>
      <td>
        {orgs.map((org) => (
          <label key={org} className="checkbox">
            <input
              type="checkbox"
              checked={user.clientOrgIds.includes(org)}
              onChange={(event) =>
                save.mutate({
                  clientOrgIds: event.target.checked
                    ? [...user.clientOrgIds, org]
                    : user.clientOrgIds.filter((other) => other !== org),
                })
              }
              aria-label={`${user.email} may act for ${clientOrgLabel(config, org)}`}
            />{' '}
            {org}
          </label>
        ))}
        {save.isError ? (
          <span role="alert" className="notice notice--error">
            {errorMessage(save.error)}
          </span>
        ) : null}
      </td>
      {config.connections.length > 1 ? (
        <td>
          {config.connections.map((connection) => (
            <label key={connection.name} className="checkbox">
              <input
                type="checkbox"
                checked={user.connections.includes(connection.name)}
                // Admins use every connection whatever is ticked.
                disabled={user.role === 'admin'}
                onChange={(event) =>
                  save.mutate({
                    connections: event.target.checked
                      ? [...user.connections, connection.name]
                      : user.connections.filter((other) => other !== connection.name),
                  })
                }
                aria-label={`${user.email} may use ${connectionLabel(connection)}`}
              />{' '}
              {connectionLabel(connection)}
            </label>
          ))}
        </td>
      ) : null}
      <td>{user.lastSignInAt ? formatDateTime(user.lastSignInAt) : 'never'}</td>
      <td>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => save.mutate({ disabled: !user.disabled })}
        >
          {user.disabled ? 'Enable' : 'Disable'}
        </button>{' '}
        <button
          type="button"
          className="button button--secondary button--small"
          aria-label={`End sessions of ${user.email}`}
          disabled={endSessions.isPending}
          onClick={() => endSessions.mutate()}
        >
          End sessions
        </button>
        {endSessions.isSuccess ? (
          <span role="status" className="notice notice--success">
            {endedText(endSessions.data, user.email)}
          </span>
        ) : null}
        {endSessions.isError ? (
          <span role="alert" className="notice notice--error">
            {errorMessage(endSessions.error)}
          </span>
        ) : null}
      </td>
    </tr>
  );
}

/** What ending a user's sessions did, and that it did not lock them out. */
function endedText(ended: number, email: string): string {
  return ended === 0
    ? `${email} had no session to end.`
    : `Ended ${ended} session${ended === 1 ? '' : 's'} of ${email}. They can sign in again.`;
}
