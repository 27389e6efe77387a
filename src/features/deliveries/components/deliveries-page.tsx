import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useId, useState } from 'react';
import {
  newWebhookSchema,
  notificationKindLabels,
  type DeliveryLogEntry,
  type Webhook,
} from '@/domain/deliveries';
import { notificationKinds } from '@/domain/notifications';
import {
  addWebhook,
  deliveryLogQueryOptions,
  removeWebhook,
  testWebhook,
  webhooksKey,
  webhooksQueryOptions,
} from '@/features/deliveries/api/deliveries';
import { errorMessage } from '@/shared/api/http';
import { useOrg } from '@/shared/config/org-context';
import { Field } from '@/shared/form/field';
import { DataTable, TableHead, type Column } from '@/shared/ui/data-table';
import { DateTime } from '@/shared/ui/date-time';
import { ErrorNotice } from '@/shared/ui/error-notice';
import { StatusBadge, type Tone } from '@/shared/ui/status-badge';

/** The page's heading (its prerendered shell shows it too). */
export const deliveriesHeading = 'Webhooks and deliveries';

/**
 * For admins: the webhooks notifications go to, and the log of every delivery by e-mail or
 * webhook, failures first (decision 056).
 */
export function DeliveriesPage() {
  return (
    <div className="page">
      <h1>{deliveriesHeading}</h1>
      <p className="page__lead">
        Notifications reach people in the app, by e-mail (each user chooses which, in Settings) and
        by the webhooks below. A delivery that fails is tried again for a day; the log shows each
        one, failures first.
      </p>
      <Webhooks />
      <DeliveryLog />
    </div>
  );
}

function Webhooks() {
  const id = useId();
  const queryClient = useQueryClient();
  const { config } = useOrg();
  const webhooks = useQuery(webhooksQueryOptions());
  const [problem, setProblem] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const add = useMutation({
    mutationFn: addWebhook,
    onSuccess: async (made) => {
      setSecret({ name: made.webhook.name, secret: made.secret });
      await queryClient.invalidateQueries({ queryKey: webhooksKey });
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  const onAdd = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    setSecret(null);
    const form = event.currentTarget;
    const data = new FormData(form);
    const connection = String(data.get('connection') ?? '');
    const input = newWebhookSchema.safeParse({
      name: String(data.get('name') ?? ''),
      url: String(data.get('url') ?? ''),
      connection: connection === '' ? null : connection,
      events: data.getAll('events').map(String),
    });
    if (!input.success) {
      setProblem(input.error.issues[0]?.message ?? 'Check the name, address and events.');
      return;
    }
    add.mutate(input.data, { onSuccess: () => form.reset() });
  };

  return (
    <section className="settings-section settings-section--wide" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Webhooks</h2>
      <p>
        Each webhook receives a signed JSON <code>POST</code> for the events it is set to: a Slack
        or Microsoft Teams incoming webhook shows its <code>text</code>. Addresses inside the
        network are refused unless the server lists their host in WEBHOOK_ALLOW_HOSTS.
      </p>
      <form className="token-form" aria-labelledby={`${id}-new`} onSubmit={onAdd}>
        <h3 id={`${id}-new`}>Add a webhook</h3>
        <Field label="Name">
          {(control) => <input {...control} name="name" type="text" required maxLength={100} />}
        </Field>
        <Field label="Address">
          {(control) => (
            <input
              {...control}
              name="url"
              type="url"
              required
              autoComplete="off"
              placeholder="https://hooks.slack.com/services/…"
            />
          )}
        </Field>
        <Field label="Connection">
          {(control) => (
            <select {...control} name="connection" defaultValue="">
              <option value="">Every connection</option>
              {config.connections.map((connection) => (
                <option key={connection.name} value={connection.name}>
                  {connection.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset className="choice">
          <legend className="choice__legend">Events</legend>
          <div className="choice__options">
            {notificationKinds.map((kind) => (
              <label key={kind} className="checkbox" htmlFor={`${id}-event-${kind}`}>
                <input
                  type="checkbox"
                  id={`${id}-event-${kind}`}
                  name="events"
                  value={kind}
                  defaultChecked
                />
                <span>When {notificationKindLabels[kind].replace(/\bI\b/g, 'someone')}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <ErrorNotice message={problem} />
        <button type="submit" className="button" disabled={add.isPending}>
          Add webhook
        </button>
      </form>

      {secret ? (
        <div
          className="notice notice--success token-reveal"
          role="region"
          aria-labelledby={`${id}-secret`}
        >
          <p id={`${id}-secret`}>
            <strong>
              Copy the signing secret of “{secret.name}” now: it will not be shown again.
            </strong>{' '}
            The receiver checks each delivery’s X-Portal-Signature with it.
          </p>
          <div className="field">
            <label htmlFor={`${id}-secret-value`} className="field__label">
              Signing secret
            </label>
            <input
              id={`${id}-secret-value`}
              type="text"
              className="token-reveal__value"
              readOnly
              value={secret.secret}
              onFocus={(event) => event.currentTarget.select()}
            />
          </div>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setSecret(null)}
          >
            Done, hide it
          </button>
        </div>
      ) : null}

      <h3 id={`${id}-list`}>Webhooks</h3>
      {webhooks.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(webhooks.error)}
        </p>
      ) : !webhooks.data ? (
        <p>Loading the webhooks…</p>
      ) : webhooks.data.length === 0 ? (
        <p>No webhook yet.</p>
      ) : (
        <table className="inspector__table" aria-labelledby={`${id}-list`}>
          <TableHead
            columns={[
              { heading: 'Name' },
              { heading: 'Address' },
              { heading: 'Connection' },
              { heading: 'Events' },
              { heading: 'Actions', headingHidden: true },
            ]}
          />
          <tbody>
            {webhooks.data.map((webhook) => (
              <WebhookRow key={webhook.id} webhook={webhook} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function WebhookRow({ webhook }: { webhook: Webhook }) {
  const queryClient = useQueryClient();
  const [said, setSaid] = useState<string | null>(null);
  const test = useMutation({
    mutationFn: () => testWebhook(webhook.id, webhook.name),
    onSuccess: (result) =>
      setSaid(
        result.delivered
          ? `Delivered: the receiver answered ${result.status ?? ''}.`
          : `Not delivered: ${result.reason ?? 'no reason given'}`,
      ),
    onError: (error) => setSaid(errorMessage(error)),
  });
  const remove = useMutation({
    mutationFn: () => removeWebhook(webhook.id, webhook.name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey }),
    onError: (error) => setSaid(errorMessage(error)),
  });
  return (
    <tr>
      <th scope="row" className="user-text">
        {webhook.name}
      </th>
      <td className="user-text">{webhook.url}</td>
      <td>{webhook.connection ?? 'Every connection'}</td>
      <td>{webhook.events.join(', ')}</td>
      <td>
        <div className="button-row">
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={test.isPending}
            onClick={() => test.mutate()}
          >
            Send a test
          </button>
          <button
            type="button"
            className="button button--secondary button--small"
            disabled={remove.isPending}
            onClick={() => remove.mutate()}
          >
            Remove
          </button>
        </div>
        <span role="status">{said}</span>
      </td>
    </tr>
  );
}

const stateTones: Record<DeliveryLogEntry['state'], Tone> = {
  failed: 'error',
  pending: 'pending',
  sent: 'success',
};

const logColumns: readonly Column<DeliveryLogEntry>[] = [
  {
    heading: 'State',
    cell: (entry) => <StatusBadge tone={stateTones[entry.state]}>{entry.state}</StatusBadge>,
  },
  { heading: 'Channel', cell: (entry) => (entry.channel === 'email' ? 'E-mail' : 'Webhook') },
  { heading: 'To', className: 'user-text', cell: (entry) => entry.target },
  { heading: 'Notification', rowHeader: true, cell: (entry) => entry.title },
  { heading: 'Attempts', cell: (entry) => entry.attempts },
  { heading: 'Last change', cell: (entry) => <DateTime at={entry.updatedAt} /> },
  {
    heading: 'Why',
    cell: (entry) => (
      <>
        {entry.lastError ?? ''}
        {entry.state === 'pending' && entry.nextAttemptAt ? (
          <>
            {' '}
            Next attempt <DateTime at={entry.nextAttemptAt} />.
          </>
        ) : null}
      </>
    ),
  },
];

function DeliveryLog() {
  const id = useId();
  const log = useQuery(deliveryLogQueryOptions());
  return (
    <section className="settings-section settings-section--wide" aria-labelledby={id}>
      <h2 id={id}>Delivery log</h2>
      {log.isError ? (
        <p role="alert" className="notice notice--error">
          {errorMessage(log.error)}
        </p>
      ) : !log.data ? (
        <p>Loading the delivery log…</p>
      ) : log.data.length === 0 ? (
        <p>Nothing has been delivered yet.</p>
      ) : (
        <DataTable
          rows={log.data}
          columns={logColumns}
          rowKey={(entry) => entry.id}
          labelledBy={id}
        />
      )}
    </section>
  );
}
