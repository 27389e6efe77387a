import type { DeliveryChannel, DeliveryState } from '@/domain/deliveries';
import { notificationKinds, type NotificationKind } from '@/domain/notifications';
import type { PortalSqlite } from '@/server/store/portal-database';

/** A delivery to add to the outbox, due at once. */
export interface NewDelivery {
  about: string;
  channel: DeliveryChannel;
  /** The user's id (e-mail) or the webhook's id. */
  target: string;
  kind: NotificationKind;
  title: string;
  /** What is sent, as JSON. */
  payload: string;
  at: number;
}

export interface StoredDelivery {
  id: number;
  about: string;
  channel: DeliveryChannel;
  target: string;
  kind: NotificationKind;
  title: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAt: number;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
}

/** How an attempt ended: sent, or due again at `nextAt`, or failed for good. */
export type AttemptEnd =
  | { state: 'sent'; status: number | null; at: number }
  | { state: 'pending'; status: number | null; error: string; nextAt: number; at: number }
  | { state: 'failed'; status: number | null; error: string; at: number };

export interface StoredWebhook {
  id: number;
  name: string;
  url: string;
  connection: string | null;
  events: NotificationKind[];
  createdAt: number;
  updatedAt: number;
}

export interface WebhookFields {
  name: string;
  url: string;
  connection: string | null;
  events: readonly NotificationKind[];
}

/** What a change to a webhook gives: a field left out keeps its value. */
type WebhookChanges = { [K in keyof WebhookFields]?: WebhookFields[K] | undefined };

/** The outbox, the webhooks and the e-mail choices, asynchronous for PostgreSQL's sake. */
export interface DeliveryStore {
  /** Adds a delivery; false when the same (about, channel, target) is there already. */
  enqueue(delivery: NewDelivery): Promise<boolean>;
  /**
   * Takes the lease of up to `limit` pending deliveries due by `now` and not leased, for `owner`
   * until `until`; each is returned to one owner only.
   */
  claimDue(now: number, owner: string, until: number, limit: number): Promise<StoredDelivery[]>;
  /** Records an attempt's end and gives back the lease; false when the lease was no longer ours. */
  finish(id: number, owner: string, end: AttemptEnd): Promise<boolean>;
  /**
   * When the next pending delivery may be taken, or null: its due time, or just after the lease
   * another process holds on it runs out (so a worker does not spin on a delivery in flight).
   */
  nextDueAt(): Promise<number | null>;
  /** The newest deliveries, failed ones first, then pending, then sent. */
  log(limit: number, channel?: DeliveryChannel): Promise<StoredDelivery[]>;
  /** Removes sent and failed deliveries last changed before `before`; how many. */
  prune(before: number): Promise<number>;

  addWebhook(fields: WebhookFields, secret: string, at: number): Promise<StoredWebhook>;
  changeWebhook(
    id: number,
    changes: WebhookChanges,
    at: number,
  ): Promise<StoredWebhook | undefined>;
  removeWebhook(id: number): Promise<boolean>;
  webhooks(): Promise<StoredWebhook[]>;
  /** A webhook with its signing secret, to send with. */
  webhookWithSecret(id: number): Promise<(StoredWebhook & { secret: string }) | undefined>;

  /** The user's e-mail choices that differ from the default (on). */
  mailChoices(userId: string): Promise<Map<NotificationKind, boolean>>;
  setMailChoice(userId: string, kind: NotificationKind, enabled: boolean): Promise<void>;
  /** The key that signs unsubscribe links, made once (the first process to ask makes it). */
  linkKey(make: () => string): Promise<string>;
}

export interface DeliveryRow {
  id: number;
  about: string;
  channel: string;
  target: string;
  kind: string;
  title: string;
  payload: string;
  state: string;
  attempts: number;
  next_at: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

export const deliveryColumns =
  'id, about, channel, target, kind, title, payload, state, attempts, next_at, last_status, last_error, created_at, updated_at, sent_at';

function kindOf(text: string): NotificationKind {
  // Written through this store; a kind a later release adds reads as the nearest it knows.
  return notificationKinds.find((kind) => kind === text) ?? 'batch.settled';
}

export function toStoredDelivery(row: DeliveryRow): StoredDelivery {
  return {
    id: Number(row.id),
    about: row.about,
    channel: row.channel === 'webhook' ? 'webhook' : 'email',
    target: row.target,
    kind: kindOf(row.kind),
    title: row.title,
    payload: row.payload,
    state: row.state === 'sent' ? 'sent' : row.state === 'failed' ? 'failed' : 'pending',
    attempts: Number(row.attempts),
    nextAt: Number(row.next_at),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    sentAt: row.sent_at === null ? null : Number(row.sent_at),
  };
}

export interface WebhookRow {
  id: number;
  name: string;
  url: string;
  connection: string | null;
  events: string;
  secret: string;
  created_at: number;
  updated_at: number;
}

export function toStoredWebhook(row: WebhookRow): StoredWebhook {
  const events = JSON.parse(row.events) as string[];
  return {
    id: Number(row.id),
    name: row.name,
    url: row.url,
    connection: row.connection,
    events: notificationKinds.filter((kind) => events.includes(kind)),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** The values of an attempt's end, in the order both stores' UPDATE names them. */
export function endValues(end: AttemptEnd) {
  return [
    end.state,
    end.state === 'pending' ? end.nextAt : end.at,
    end.status,
    end.state === 'sent' ? null : end.error,
    end.at,
    end.state === 'sent' ? end.at : null,
  ] as const;
}

/**
 * The values of a new delivery, in the order both stores' INSERT names them; the last, its time,
 * is when it is first due, made and changed.
 */
export function deliveryValues(d: NewDelivery) {
  return [d.about, d.channel, d.target, d.kind, d.title, d.payload, d.at] as const;
}

/** A webhook's fields, in the order both stores' INSERT and UPDATE name them. */
export function webhookValues(fields: WebhookFields) {
  return [fields.name, fields.url, fields.connection, JSON.stringify(fields.events)] as const;
}

/** A webhook's fields after a change: a field the change leaves out keeps its value. */
export function changedWebhook(now: WebhookFields, changes: WebhookChanges): WebhookFields {
  return {
    name: changes.name ?? now.name,
    url: changes.url ?? now.url,
    connection: changes.connection === undefined ? now.connection : changes.connection,
    events: changes.events ?? now.events,
  };
}

/** Failed first (what an admin must see), then pending, then sent; newest first within each. */
export const logOrder = `CASE state WHEN 'failed' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, updated_at DESC, id DESC`;

/** The outbox and its companions in the portal's SQLite file. */
export function createDeliveryStore(db: PortalSqlite): DeliveryStore {
  const statements = {
    enqueue: db.prepare(
      `INSERT INTO deliveries (about, channel, target, kind, title, payload, state, attempts,
         next_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
    ),
    due: db.prepare<[number, number, number], { id: number }>(
      `SELECT id FROM deliveries WHERE state = 'pending' AND next_at <= ?
         AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY next_at LIMIT ?`,
    ),
    claim: db.prepare<[string, number, number], DeliveryRow>(
      `UPDATE deliveries SET claimed_by = ?, claimed_until = ? WHERE id = ? RETURNING ${deliveryColumns}`,
    ),
    finish: db.prepare(
      `UPDATE deliveries SET state = ?, next_at = ?, last_status = ?, last_error = ?, updated_at = ?,
         sent_at = ?, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL
       WHERE id = ? AND claimed_by = ?`,
    ),
    nextDue: db.prepare<[], { next: number | null }>(
      `SELECT min(max(next_at, coalesce(claimed_until + 1, 0))) AS next FROM deliveries
       WHERE state = 'pending'`,
    ),
    logAll: db.prepare<[number], DeliveryRow>(
      `SELECT ${deliveryColumns} FROM deliveries ORDER BY ${logOrder} LIMIT ?`,
    ),
    logChannel: db.prepare<[string, number], DeliveryRow>(
      `SELECT ${deliveryColumns} FROM deliveries WHERE channel = ? ORDER BY ${logOrder} LIMIT ?`,
    ),
    prune: db.prepare<[number]>(
      `DELETE FROM deliveries WHERE state IN ('sent', 'failed') AND updated_at < ?`,
    ),
    addWebhook: db.prepare<
      [string, string, string | null, string, string, number, number],
      WebhookRow
    >(
      `INSERT INTO webhooks (name, url, connection, events, secret, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    changeWebhook: db.prepare<[string, string, string | null, string, number, number], WebhookRow>(
      `UPDATE webhooks SET name = ?, url = ?, connection = ?, events = ?, updated_at = ?
       WHERE id = ? RETURNING *`,
    ),
    removeWebhook: db.prepare<[number]>('DELETE FROM webhooks WHERE id = ?'),
    webhooks: db.prepare<[], WebhookRow>('SELECT * FROM webhooks ORDER BY name, id'),
    webhook: db.prepare<[number], WebhookRow>('SELECT * FROM webhooks WHERE id = ?'),
    mailChoices: db.prepare<[string], { kind: string; enabled: number }>(
      'SELECT kind, enabled FROM mail_preferences WHERE user_id = ?',
    ),
    setMailChoice: db.prepare<[string, string, number]>(
      `INSERT INTO mail_preferences (user_id, kind, enabled) VALUES (?, ?, ?)
       ON CONFLICT (user_id, kind) DO UPDATE SET enabled = excluded.enabled`,
    ),
    addKey: db.prepare<[string, string]>(
      'INSERT INTO delivery_keys (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
    ),
    key: db.prepare<[string], { secret: string }>(
      'SELECT secret FROM delivery_keys WHERE name = ?',
    ),
  };
  // One transaction: SQLite lets one writer in at a time, so two processes never claim one row.
  const claimDue = db.transaction(
    (now: number, owner: string, until: number, limit: number): StoredDelivery[] =>
      statements.due.all(now, now, limit).flatMap(({ id }) => {
        const row = statements.claim.get(owner, until, id);
        return row ? [toStoredDelivery(row)] : [];
      }),
  );
  return {
    async enqueue(d) {
      // SQLite's anonymous parameters take the time once more for created_at and updated_at.
      return statements.enqueue.run(...deliveryValues(d), d.at, d.at).changes === 1;
    },
    async claimDue(now, owner, until, limit) {
      return claimDue.immediate(now, owner, until, limit);
    },
    async finish(id, owner, end) {
      return statements.finish.run(...endValues(end), id, owner).changes === 1;
    },
    async nextDueAt() {
      return statements.nextDue.get()?.next ?? null;
    },
    async log(limit, channel) {
      const rows = channel
        ? statements.logChannel.all(channel, limit)
        : statements.logAll.all(limit);
      return rows.map(toStoredDelivery);
    },
    async prune(before) {
      return statements.prune.run(before).changes;
    },
    async addWebhook(fields, secret, at) {
      const row = statements.addWebhook.get(...webhookValues(fields), secret, at, at);
      if (!row) throw new Error('webhooks: the insert returned no row');
      return toStoredWebhook(row);
    },
    async changeWebhook(id, changes, at) {
      const row = statements.webhook.get(id);
      if (!row) return undefined;
      const fields = changedWebhook(toStoredWebhook(row), changes);
      const changed = statements.changeWebhook.get(...webhookValues(fields), at, id);
      return changed ? toStoredWebhook(changed) : undefined;
    },
    async removeWebhook(id) {
      return statements.removeWebhook.run(id).changes === 1;
    },
    async webhooks() {
      return statements.webhooks.all().map(toStoredWebhook);
    },
    async webhookWithSecret(id) {
      const row = statements.webhook.get(id);
      return row ? { ...toStoredWebhook(row), secret: row.secret } : undefined;
    },
    async mailChoices(userId) {
      return new Map(
        statements.mailChoices.all(userId).flatMap(({ kind, enabled }) => {
          const known = notificationKinds.find((each) => each === kind);
          return known ? [[known, enabled === 1] as const] : [];
        }),
      );
    },
    async setMailChoice(userId, kind, enabled) {
      statements.setMailChoice.run(userId, kind, enabled ? 1 : 0);
    },
    async linkKey(make) {
      statements.addKey.run('unsubscribe', make());
      const row = statements.key.get('unsubscribe');
      if (!row) throw new Error('delivery_keys: the unsubscribe key was not kept');
      return row.secret;
    },
  };
}
