import type { candidateResultStatuses, requisitionResultStatuses } from '@/domain/batch-results';
import type { PayloadKind } from '@/domain/payload-kind';
import type { SandboxDatabase } from './database';
import type { RequisitionRecord, StoredRequisition } from './requisition-record';

/**
 * Every read and write of the changing data (batches, items, requisitions, candidates), as prepared
 * statements made once: the worker runs them hundreds of times per batch.
 */

/** An item's status as the interface names it, of either kind. */
export type ItemStatus =
  (typeof requisitionResultStatuses)[number] | (typeof candidateResultStatuses)[number];

export interface BatchScope {
  clientOrgId: number;
  vendorOrgId: number;
}

export interface Batch extends BatchScope {
  batchId: string;
  kind: PayloadKind;
}

export interface PendingItem extends Batch {
  seq: number;
  row: number;
  payload: unknown;
}

export interface ItemResult {
  row: number;
  status: ItemStatus;
  errorMessage: string;
  resultId: string;
  reference: string;
}

export interface ItemOutcome {
  status: Exclude<ItemStatus, 'Pending'>;
  errorMessage: string;
  resultId: string;
  reference: string;
}

export interface NewCandidate {
  clientOrgId: number;
  vendorOrgId: number;
  reqId: number;
  email: string;
  status: 'New' | 'Incomplete';
  createdAt: string;
  record: Record<string, string>;
}

/** A stored requisition as its row reads: the record still JSON text. */
export type RequisitionRow = Omit<StoredRequisition, 'record'> & { record: string };

const requisitionColumns = `req_id AS reqId, client_org_id AS clientOrgId, org_id AS orgId,
  client_internal_req AS clientInternalReq, created_at AS createdAt, updated_at AS updatedAt,
  record`;

export function toStored(row: RequisitionRow): StoredRequisition {
  // The record column only ever holds what insertRequisition/updateRequisition wrote.
  const record: RequisitionRecord = JSON.parse(row.record);
  return { ...row, record };
}

/** A GET /requisitions filter after validation: a column, an operator and a bound value. */
export interface RequisitionFilter {
  column: 'req_id' | 'created_at' | 'updated_at';
  conditions: ReadonlyArray<{ operator: '=' | '>' | '>=' | '<' | '<='; value: number | string }>;
}

export function createStore(db: SandboxDatabase) {
  const statements = {
    insertBatch: db.prepare(
      `INSERT INTO batches (batch_id, kind, client_org_id, vendor_org_id, received_at, item_count)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    insertItem: db.prepare(
      'INSERT INTO batch_items (batch_id, row, payload, reference) VALUES (?, ?, ?, ?)',
    ),
    findBatch: db.prepare<[string], Batch>(
      `SELECT batch_id AS batchId, kind, client_org_id AS clientOrgId, vendor_org_id AS vendorOrgId
       FROM batches WHERE batch_id = ?`,
    ),
    itemResults: db.prepare<[string], ItemResult>(
      `SELECT row, status, error_message AS errorMessage, result_id AS resultId, reference
       FROM batch_items WHERE batch_id = ? ORDER BY row`,
    ),
    nextPending: db.prepare<[], { seq: number }>(
      "SELECT seq FROM batch_items WHERE status = 'Pending' ORDER BY seq LIMIT 1",
    ),
    pendingItem: db.prepare<[number], Omit<PendingItem, 'payload'> & { payload: string }>(
      `SELECT i.seq, i.row, i.payload, b.batch_id AS batchId, b.kind,
              b.client_org_id AS clientOrgId, b.vendor_org_id AS vendorOrgId
       FROM batch_items i JOIN batches b ON b.batch_id = i.batch_id
       WHERE i.seq = ? AND i.status = 'Pending'`,
    ),
    finishItem: db.prepare(
      `UPDATE batch_items SET status = ?, error_message = ?, result_id = ?, reference = ?,
         processed_at = ? WHERE seq = ? AND status = 'Pending'`,
    ),
    requisitionByCir: db.prepare<[number, string], RequisitionRow>(
      `SELECT ${requisitionColumns} FROM requisitions
       WHERE client_org_id = ? AND client_internal_req = ?`,
    ),
    requisitionById: db.prepare<[number, number], RequisitionRow>(
      `SELECT ${requisitionColumns} FROM requisitions WHERE client_org_id = ? AND req_id = ?`,
    ),
    insertRequisition: db.prepare(
      `INSERT INTO requisitions
         (client_org_id, org_id, client_internal_req, created_at, updated_at, record)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    updateRequisition: db.prepare(
      'UPDATE requisitions SET record = ?, updated_at = ? WHERE req_id = ?',
    ),
    activeCandidate: db.prepare<[number, string], { candId: number }>(
      'SELECT cand_id AS candId FROM candidates WHERE req_id = ? AND email_key = ? LIMIT 1',
    ),
    insertCandidate: db.prepare(
      `INSERT INTO candidates
         (cand_id, client_org_id, vendor_org_id, req_id, email_key, status, created_at, record)
       VALUES ((SELECT COALESCE(MAX(cand_id), 700000) + 1 FROM candidates), ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };

  return {
    /** Stores a whole batch in one transaction: all items are durable, or none. */
    insertBatch: db.transaction(
      (
        batch: Batch,
        items: ReadonlyArray<{ payload: unknown; reference: string }>,
        receivedAt: string,
      ) => {
        statements.insertBatch.run(
          batch.batchId,
          batch.kind,
          batch.clientOrgId,
          batch.vendorOrgId,
          receivedAt,
          items.length,
        );
        items.forEach((item, index) =>
          statements.insertItem.run(
            batch.batchId,
            index + 1,
            JSON.stringify(item.payload),
            item.reference,
          ),
        );
      },
    ),

    findBatch(batchId: string): Batch | undefined {
      return statements.findBatch.get(batchId);
    },

    itemResults(batchId: string): ItemResult[] {
      return statements.itemResults.all(batchId);
    },

    nextPendingSeq(): number | undefined {
      return statements.nextPending.get()?.seq;
    },

    /** The item if it is still Pending; read inside the item's transaction. */
    pendingItem(seq: number): PendingItem | undefined {
      const row = statements.pendingItem.get(seq);
      if (!row) return undefined;
      const payload: unknown = JSON.parse(row.payload);
      return { ...row, payload };
    },

    finishItem(seq: number, outcome: ItemOutcome, processedAt: string): void {
      statements.finishItem.run(
        outcome.status,
        outcome.errorMessage,
        outcome.resultId,
        outcome.reference,
        processedAt,
        seq,
      );
    },

    requisitionByClientInternalReq(
      clientOrgId: number,
      clientInternalReq: string,
    ): StoredRequisition | undefined {
      const row = statements.requisitionByCir.get(clientOrgId, clientInternalReq);
      return row && toStored(row);
    },

    requisitionById(clientOrgId: number, reqId: number): StoredRequisition | undefined {
      const row = statements.requisitionById.get(clientOrgId, reqId);
      return row && toStored(row);
    },

    insertRequisition(
      clientOrgId: number,
      orgId: number,
      record: RequisitionRecord,
      at: string,
    ): number {
      const result = statements.insertRequisition.run(
        clientOrgId,
        orgId,
        record.clientinternalreq,
        at,
        at,
        JSON.stringify(record),
      );
      return Number(result.lastInsertRowid);
    },

    updateRequisition(reqId: number, record: RequisitionRecord, at: string): void {
      statements.updateRequisition.run(JSON.stringify(record), at, reqId);
    },

    /** A client's requisitions in Req ID order, each record still the JSON text it is stored as. */
    listRequisitions(clientOrgId: number, filter?: RequisitionFilter): RequisitionRow[] {
      const where = ['client_org_id = ?'];
      const params: Array<number | string> = [clientOrgId];
      for (const condition of filter?.conditions ?? []) {
        // Column and operator come from fixed lists (see RequisitionFilter); values are bound.
        where.push(`${filter?.column ?? 'req_id'} ${condition.operator} ?`);
        params.push(condition.value);
      }
      return db
        .prepare<Array<number | string>, RequisitionRow>(
          `SELECT ${requisitionColumns} FROM requisitions WHERE ${where.join(' AND ')}
           ORDER BY req_id`,
        )
        .all(...params);
    },

    /** A candidate with this email (lower-cased) already submitted to the requisition. */
    submittedCandidateId(reqId: number, email: string): number | undefined {
      return statements.activeCandidate.get(reqId, email.toLowerCase())?.candId;
    },

    insertCandidate(candidate: NewCandidate): number {
      const result = statements.insertCandidate.run(
        candidate.clientOrgId,
        candidate.vendorOrgId,
        candidate.reqId,
        candidate.email.toLowerCase(),
        candidate.status,
        candidate.createdAt,
        JSON.stringify(candidate.record),
      );
      return Number(result.lastInsertRowid);
    },

    transaction<T>(work: () => T): T {
      return db.transaction(work)();
    },
  };
}

export type SandboxStore = ReturnType<typeof createStore>;
