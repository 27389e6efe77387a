import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import {
  apiTokenExpiry,
  apiTokenNameMax,
  apiTokenScopeLabels,
  apiTokenScopes,
  apiTokenState,
  createApiTokenSchema,
  type ApiTokenSummary,
  type CreatedApiToken,
} from '@/domain/api-tokens';
import {
  allApiTokensQueryOptions,
  apiTokensKey,
  createApiToken,
  ownApiTokensQueryOptions,
  revokeApiToken,
} from '@/features/account/api/api-tokens';
import { errorMessage } from '@/shared/api/http';
import { formatDateTime } from '@/shared/lib/format';
import { useSession, useSessionUser } from '@/shared/session/session';
import { ConfirmDialog } from '@/shared/ui/confirm-dialog';
import { TableHead } from '@/shared/ui/data-table';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { copyText } from '@/shared/ui/json-actions';
import { StatusBadge } from '@/shared/ui/status-badge';

const stateBadge = {
  active: { tone: 'success', label: 'Active' },
  expired: { tone: 'neutral', label: 'Expired' },
  revoked: { tone: 'warning', label: 'Revoked' },
} as const;

/**
 * /account: the signed-in QA engineer's or admin's personal API tokens (decision 037), for CI
 * jobs; admins also see everyone's, to cut off one that leaked.
 */
export function AccountPage() {
  const session = useSession();
  const user = useSessionUser();
  if (!session?.authRequired || !user) {
    return (
      <div className="page">
        <h1>Account</h1>
        <p className="page__lead">
          Sign-in is off on this portal, so there is no account here and no API token is needed:
          scripts and CI jobs call the portal as they are. API tokens are for a portal with sign-in
          on.
        </p>
      </div>
    );
  }
  return (
    <div className="page">
      <h1>Account</h1>
      <p className="page__lead">
        Signed in as <strong className="user-text">{user.email}</strong> ({user.role}).
      </p>
      <OwnTokens />
      {user.role === 'admin' ? <EveryonesTokens /> : null}
    </div>
  );
}

function OwnTokens() {
  const id = useId();
  const queryClient = useQueryClient();
  const tokens = useQuery(ownApiTokensQueryOptions());
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const create = useMutation({
    mutationFn: createApiToken,
    onSuccess: async (made, _input) => {
      setCreated(made);
      await queryClient.invalidateQueries({ queryKey: apiTokensKey });
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    setCreated(null);
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = createApiTokenSchema.safeParse({
      name: String(data.get('name') ?? ''),
      scope: String(data.get('scope') ?? ''),
      expiresInDays: Number(data.get('expiresInDays')),
    });
    if (!input.success) {
      setProblem(input.error.issues[0]?.message ?? 'Check the name, scope and expiry.');
      return;
    }
    create.mutate(input.data, { onSuccess: () => form.reset() });
  };

  return (
    <section className="settings-section settings-section--wide" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>API tokens</h2>
      <p>
        A personal API token lets a CI job or a script call this portal as you: run QA suites and,
        with the scope “suites and sends”, send batches through the VMS proxy. It acts with your
        role, client orgs and connections, and the audit trail names it. It cannot sign in, manage
        accounts or make other tokens. Keep it in your CI system’s secret store (the suite command
        reads it from <code>VMS_PORTAL_TOKEN</code>).
      </p>

      <form className="token-form" aria-labelledby={`${id}-new`} onSubmit={onCreate}>
        <h3 id={`${id}-new`}>Make a token</h3>
        <div className="field">
          <label htmlFor={`${id}-name`} className="field__label">
            Name
          </label>
          <p className="field__hint" id={`${id}-name-hint`}>
            Where it is used, so you know which to revoke: “nightly regression on UAT”.
          </p>
          <input
            id={`${id}-name`}
            name="name"
            type="text"
            required
            maxLength={apiTokenNameMax}
            autoComplete="off"
            aria-describedby={`${id}-name-hint`}
          />
        </div>
        <fieldset className="choice">
          <legend className="choice__legend">Scope</legend>
          <div className="choice__options">
            {apiTokenScopes.map((scope) => (
              <label key={scope} className="radio" htmlFor={`${id}-scope-${scope}`}>
                <input
                  type="radio"
                  id={`${id}-scope-${scope}`}
                  name="scope"
                  value={scope}
                  defaultChecked={scope === 'suites'}
                />
                <span>{apiTokenScopeLabels[scope]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-expiry`} className="field__label">
            Expires after
          </label>
          <select
            id={`${id}-expiry`}
            name="expiresInDays"
            defaultValue={String(apiTokenExpiry.default)}
          >
            {apiTokenExpiry.choices.map((days) => (
              <option key={days} value={days}>
                {days} days
              </option>
            ))}
          </select>
        </div>
        <ErrorNotice message={problem} />
        <button type="submit" className="button" disabled={create.isPending}>
          Make token
        </button>
      </form>

      {created ? <NewToken created={created} onDone={() => setCreated(null)} /> : null}

      <h3 id={`${id}-yours`}>Your tokens</h3>
      <TokenTable
        labelledBy={`${id}-yours`}
        query={tokens}
        empty="You have no API token yet."
        showOwner={false}
      />
    </section>
  );
}

/** The new token, this once, with a way to copy it. */
function NewToken({ created, onDone }: { created: CreatedApiToken; onDone(): void }) {
  const id = useId();
  const [copied, setCopied] = useState<boolean | null>(null);
  return (
    <div className="notice notice--success token-reveal" role="region" aria-labelledby={id}>
      <p id={id}>
        <strong>Copy your new token “{created.token.name}” now: it will not be shown again.</strong>{' '}
        The portal keeps only a fingerprint of it; if you lose it, revoke it and make another.
      </p>
      <div className="field">
        <label htmlFor={`${id}-value`} className="field__label">
          Your new token
        </label>
        <input
          id={`${id}-value`}
          type="text"
          className="token-reveal__value"
          readOnly
          value={created.secret}
          onFocus={(event) => event.currentTarget.select()}
        />
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button"
          onClick={() => void copyText(created.secret).then(setCopied)}
        >
          Copy
        </button>
        <button type="button" className="button button--secondary" onClick={onDone}>
          Done, hide it
        </button>
        <span role="status">
          {copied === true
            ? 'Copied.'
            : copied === false
              ? 'This browser did not allow copying: select the token and copy it yourself.'
              : ''}
        </span>
      </div>
    </div>
  );
}

/** Admins: every user's tokens, to revoke one that leaked. */
function EveryonesTokens() {
  const id = useId();
  const tokens = useQuery(allApiTokensQueryOptions());
  return (
    <section className="settings-section settings-section--wide" aria-labelledby={id}>
      <h2 id={id}>Everyone’s API tokens</h2>
      <p>
        Every user’s tokens. Revoke one that leaked or whose job is gone: its next call is refused
        with 401, saying it was revoked. Disabling a user stops all of theirs.
      </p>
      <TokenTable labelledBy={id} query={tokens} empty="Nobody has an API token yet." showOwner />
    </section>
  );
}

function TokenTable({
  labelledBy,
  query,
  empty,
  showOwner,
}: {
  labelledBy: string;
  query: ReturnType<typeof useQuery<ApiTokenSummary[]>>;
  empty: string;
  showOwner: boolean;
}) {
  if (query.isError) {
    return (
      <p role="alert" className="notice notice--error">
        {errorMessage(query.error)}
      </p>
    );
  }
  if (!query.data) return <p>Loading the tokens…</p>;
  if (query.data.length === 0) return <p>{empty}</p>;
  return (
    <table className="inspector__table" aria-labelledby={labelledBy}>
      <TableHead
        columns={[
          ...(showOwner ? [{ heading: 'User' }] : []),
          { heading: 'Name' },
          { heading: 'Scope' },
          { heading: 'Created' },
          { heading: 'Expires' },
          { heading: 'Last used' },
          { heading: 'State' },
          { heading: 'Actions', headingHidden: true },
        ]}
      />
      <tbody>
        {query.data.map((token) => (
          // Whether a token still works, as of when the list was read.
          <TokenRow key={token.id} token={token} showOwner={showOwner} now={query.dataUpdatedAt} />
        ))}
      </tbody>
    </table>
  );
}

function TokenRow({
  token,
  showOwner,
  now,
}: {
  token: ApiTokenSummary;
  showOwner: boolean;
  now: number;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const revoke = useMutation({
    mutationFn: () => revokeApiToken(token.id, token.name),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokensKey }),
  });
  const state = apiTokenState(token, now);
  const badge = stateBadge[state];
  return (
    <tr>
      {showOwner ? <td className="user-text">{token.email}</td> : null}
      <th scope="row" className="user-text">
        {token.name}
      </th>
      <td>{token.scope}</td>
      <td>{formatDateTime(token.createdAt)}</td>
      <td>{formatDateTime(token.expiresAt)}</td>
      <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'never'}</td>
      <td>
        <StatusBadge tone={badge.tone}>
          {state === 'revoked' && token.revokedAt
            ? `${badge.label} ${formatDateTime(token.revokedAt)}`
            : badge.label}
        </StatusBadge>
      </td>
      <td>
        {state === 'active' ? (
          <button
            type="button"
            className="button button--secondary button--small"
            aria-label={`Revoke ${token.name}${showOwner ? ` of ${token.email}` : ''}`}
            disabled={revoke.isPending}
            onClick={() => setConfirming(true)}
          >
            Revoke
          </button>
        ) : null}
        {revoke.isError ? (
          <span role="alert" className="notice notice--error">
            {errorMessage(revoke.error)}
          </span>
        ) : null}
        <ConfirmDialog
          open={confirming}
          title={`Revoke the token “${token.name}”?`}
          confirmLabel="Revoke token"
          cancelLabel="Keep it"
          destructive
          onConfirm={() => {
            setConfirming(false);
            revoke.mutate();
          }}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Every job that uses it is refused from its next call on (401, “revoked”). This cannot be
            undone: to go on, make a new token and put it where this one was.
          </p>
        </ConfirmDialog>
      </td>
    </tr>
  );
}
