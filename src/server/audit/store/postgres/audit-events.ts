import {
  auditColumns,
  auditValues,
  auditWhere,
  toAuditEntry,
  type AuditRow,
  type AuditStore,
} from '@/server/audit/store/audit-events';
import type { PortalPool } from '@/server/store/postgres/pool';

const columnsPerRow = 10;

/**
 * The audit trail in PostgreSQL: a batch of events is one multi-row INSERT (one round trip),
 * numbered by the table's identity so several processes append without colliding.
 */
export function createPostgresAuditStore(pool: PortalPool): AuditStore {
  return {
    async append(records) {
      if (records.length === 0) return;
      const rows = records.map(
        (_, row) =>
          `(${Array.from({ length: columnsPerRow }, (_, column) => `$${row * columnsPerRow + column + 1}`).join(', ')})`,
      );
      await pool.query(
        `INSERT INTO audit_events (at, event, user_id, email, connection, address, outcome, status,
           details, trace_id) VALUES ${rows.join(', ')}`,
        records.flatMap((record) => [...auditValues(record)]),
      );
    },
    async list(filter, page) {
      const { where, values, order } = auditWhere(filter, page, (index) => `$${index}`);
      const { rows } = await pool.query<AuditRow>(
        `SELECT ${auditColumns} FROM audit_events ${where} ${order} LIMIT ${Math.floor(page.limit)}`,
        values,
      );
      return rows.map(toAuditEntry);
    },
    async pruneBefore(cutoff, limit) {
      const { rowCount } = await pool.query(
        `DELETE FROM audit_events WHERE id IN
           (SELECT id FROM audit_events WHERE at < $1 ORDER BY at, id LIMIT $2)`,
        [cutoff, limit],
      );
      return rowCount ?? 0;
    },
    async count() {
      const { rows } = await pool.query<{ n: number }>('SELECT count(*) AS n FROM audit_events');
      return Number(rows[0]?.n ?? 0);
    },
  };
}
