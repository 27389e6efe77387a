import { describe, expect, it } from 'vitest';
import { requisitionRecordSchema } from '@/domain/requisition-record';
import { newestOf } from './sync';

/** A record as the browser reads one from the portal's list. */
const record = (reqId: string, updatedAt: string) =>
  requisitionRecordSchema.parse({ Req_Id: reqId, Req_Updated_Date_Time: updatedAt });

describe('the time a refresh asks for changes since', () => {
  it('is the latest last-updated time the portal read', () => {
    expect(
      newestOf([record('1', '2026-03-02T14:30:00Z'), record('2', '2026-05-01T08:00:00Z')]),
    ).toBe('2026-05-01T08:00:00Z');
    expect(newestOf([record('1', '2026-03-02T14:30:00Z')], '2026-04-01T00:00:00Z')).toBe(
      '2026-04-01T00:00:00Z',
    );
  });

  it('leaves out a time the profile could not read, though it sorts after every ISO time', () => {
    const records = [record('1', '2026-03-02T14:30:00Z'), record('2', '31/12/2026 10:00:00')];
    expect(newestOf(records)).toBe('2026-03-02T14:30:00Z');
  });
});
