import { notificationKinds } from '@/domain/notifications';
import {
  changedWebhook,
  deliveryColumns,
  deliveryValues,
  endValues,
  logOrder,
  toStoredDelivery,
  toStoredWebhook,
  webhookValues,
  type DeliveryRow,
  type DeliveryStore,
  type WebhookRow,
} from '@/server/deliveries/store/delivery-store';
import type { PortalPool } from '@/server/store/postgres/pool';

/** The outbox and its companions in PostgreSQL, shared by every portal process. */
export function createPostgresDeliveryStore(pool: PortalPool): DeliveryStore {
  const webhookById = async (id: number) =>
    (await pool.query<WebhookRow>('SELECT * FROM webhooks WHERE id = $1', [id])).rows[0];
  return {
    async enqueue(d) {
      const result = await pool.query(
        `INSERT INTO deliveries (about, channel, target, kind, title, payload, state, attempts,
           next_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', 0, $7, $7, $7) ON CONFLICT DO NOTHING`,
        [...deliveryValues(d)],
      );
      return result.rowCount === 1;
    },
    async claimDue(now, owner, until, limit) {
      // SKIP LOCKED: two processes claiming at once each get rows the other did not lock, and
      // the condition is re-checked on the locked row, so no row goes to both.
      const { rows } = await pool.query<DeliveryRow>(
        `UPDATE deliveries SET claimed_by = $1, claimed_until = $2
         WHERE id IN (
           SELECT id FROM deliveries WHERE state = 'pending' AND next_at <= $3
             AND (claimed_until IS NULL OR claimed_until < $3)
           ORDER BY next_at LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING ${deliveryColumns}`,
        [owner, until, now, limit],
      );
      return rows.map(toStoredDelivery);
    },
    async finish(id, owner, end) {
      const result = await pool.query(
        `UPDATE deliveries SET state = $1, next_at = $2, last_status = $3, last_error = $4,
           updated_at = $5, sent_at = $6, attempts = attempts + 1, claimed_by = NULL,
           claimed_until = NULL
         WHERE id = $7 AND claimed_by = $8`,
        [...endValues(end), id, owner],
      );
      return result.rowCount === 1;
    },
    async nextDueAt() {
      const { rows } = await pool.query<{ next: string | null }>(
        `SELECT min(greatest(next_at, coalesce(claimed_until + 1, 0))) AS next FROM deliveries
         WHERE state = 'pending'`,
      );
      const next = rows[0]?.next ?? null;
      return next === null ? null : Number(next);
    },
    async log(limit, channel) {
      const { rows } = channel
        ? await pool.query<DeliveryRow>(
            `SELECT ${deliveryColumns} FROM deliveries WHERE channel = $1 ORDER BY ${logOrder} LIMIT $2`,
            [channel, limit],
          )
        : await pool.query<DeliveryRow>(
            `SELECT ${deliveryColumns} FROM deliveries ORDER BY ${logOrder} LIMIT $1`,
            [limit],
          );
      return rows.map(toStoredDelivery);
    },
    async prune(before) {
      const result = await pool.query(
        `DELETE FROM deliveries WHERE state IN ('sent', 'failed') AND updated_at < $1`,
        [before],
      );
      return result.rowCount ?? 0;
    },
    async addWebhook(fields, secret, at) {
      const { rows } = await pool.query<WebhookRow>(
        `INSERT INTO webhooks (name, url, connection, events, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING *`,
        [...webhookValues(fields), secret, at],
      );
      const [row] = rows;
      if (!row) throw new Error('webhooks: the insert returned no row');
      return toStoredWebhook(row);
    },
    async changeWebhook(id, changes, at) {
      const row = await webhookById(id);
      if (!row) return undefined;
      const fields = changedWebhook(toStoredWebhook(row), changes);
      const { rows } = await pool.query<WebhookRow>(
        `UPDATE webhooks SET name = $1, url = $2, connection = $3, events = $4, updated_at = $5
         WHERE id = $6 RETURNING *`,
        [...webhookValues(fields), at, id],
      );
      return rows[0] ? toStoredWebhook(rows[0]) : undefined;
    },
    async removeWebhook(id) {
      return ((await pool.query('DELETE FROM webhooks WHERE id = $1', [id])).rowCount ?? 0) === 1;
    },
    async webhooks() {
      const { rows } = await pool.query<WebhookRow>('SELECT * FROM webhooks ORDER BY name, id');
      return rows.map(toStoredWebhook);
    },
    async webhookWithSecret(id) {
      const row = await webhookById(id);
      return row ? { ...toStoredWebhook(row), secret: row.secret } : undefined;
    },
    async mailChoices(userId) {
      const { rows } = await pool.query<{ kind: string; enabled: boolean }>(
        'SELECT kind, enabled FROM mail_preferences WHERE user_id = $1',
        [userId],
      );
      return new Map(
        rows.flatMap(({ kind, enabled }) => {
          const known = notificationKinds.find((each) => each === kind);
          return known ? [[known, enabled] as const] : [];
        }),
      );
    },
    async setMailChoice(userId, kind, enabled) {
      await pool.query(
        `INSERT INTO mail_preferences (user_id, kind, enabled) VALUES ($1, $2, $3)
         ON CONFLICT (user_id, kind) DO UPDATE SET enabled = excluded.enabled`,
        [userId, kind, enabled],
      );
    },
    async linkKey(make) {
      await pool.query(
        'INSERT INTO delivery_keys (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
        [`unsubscribe`, make()],
      );
      const { rows } = await pool.query<{ secret: string }>(
        'SELECT secret FROM delivery_keys WHERE name = $1',
        ['unsubscribe'],
      );
      const [row] = rows;
      if (!row) throw new Error('delivery_keys: the unsubscribe key was not kept');
      return row.secret;
    },
  };
}
