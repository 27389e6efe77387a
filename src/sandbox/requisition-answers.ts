import type { DateFormat } from '@/domain';
import { requisitionResponse } from './requisition-record';
import type { RequisitionRow } from './store';
import { toStored } from './store';

/** What the JSON kept for a requisition was written from. */
interface Kept {
  record: string;
  createdAt: string;
  updatedAt: string;
  json: string;
}

/**
 * Each listed requisition's JSON as GET /requisitions writes it, kept by Req ID beside the stored
 * texts it was written from. A list of thousands is then mostly joined rather than parsed and
 * written again: 2,000 requisitions (6 MB) took ~83 ms to answer, most of it reading each record's
 * JSON and writing the answer's. An entry is used only while its row is unchanged (its record's
 * text and its dates compared): the batch processor may have changed the row since, in another
 * thread or process. At most `limitLength` characters of JSON are kept, the oldest entries going first.
 */
export class RequisitionAnswers {
  private readonly kept = new Map<number, Kept>();
  private length = 0;

  constructor(
    private readonly dateFormat: DateFormat,
    private readonly limitLength = 64 * 1024 * 1024,
  ) {}

  /** How much JSON is kept (UTF-16 code units). */
  get keptLength(): number {
    return this.length;
  }

  /** The JSON array of these rows' answers, in their order. */
  list(rows: readonly RequisitionRow[]): string {
    return `[${rows.map((row) => this.json(row)).join(',')}]`;
  }

  private json(row: RequisitionRow): string {
    const kept = this.kept.get(row.reqId);
    if (
      kept &&
      kept.record === row.record &&
      kept.createdAt === row.createdAt &&
      kept.updatedAt === row.updatedAt
    ) {
      return kept.json;
    }
    const json = JSON.stringify(requisitionResponse(toStored(row), this.dateFormat));
    if (kept) {
      this.kept.delete(row.reqId);
      this.length -= kept.json.length;
    }
    this.kept.set(row.reqId, {
      record: row.record,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      json,
    });
    this.length += json.length;
    for (const [reqId, oldest] of this.kept) {
      if (this.length <= this.limitLength) break;
      this.kept.delete(reqId);
      this.length -= oldest.json.length;
    }
    return json;
  }
}
