import { afterEach, describe, expect, it } from 'vitest';
import { auditEntrySchema, auditFilterSchema } from '@/domain/audit';
import { type PortalDatabase } from '@/server/store/portal-database';
import { openPortalSqlite } from '@/test-support/portal-stores';
import { csvCell, exportLines } from './audit-routes';
import { createAuditStore, type AuditRecord } from './store/audit-events';

// The export (decision 036): CSV a spreadsheet opens safely, and a selection streamed page by page.

let database: PortalDatabase | undefined;
afterEach(async () => {
  await database?.close();
  database = undefined;
});

const start = Date.UTC(2026, 10, 1, 12);
const record = (n: number): AuditRecord => ({
  at: start + n * 1000,
  event: n % 2 === 0 ? 'send' : 'sign_in_failed',
  userId: null,
  email: `user${n}@example.com`,
  connection: null,
  address: '127.0.0.1',
  outcome: 'ok',
  status: null,
  details: { n, reason: 'a, "quoted" reason' },
  traceId: null,
});

async function collect(lines: AsyncGenerator<string>): Promise<string> {
  let text = '';
  for await (const chunk of lines) text += chunk;
  return text;
}

describe('the audit export', () => {
  it('quotes what CSV needs quoted and defuses what a spreadsheet would run', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(csvCell({ a: 1 })).toBe('"{""a"":1}"');
  });

  it('streams every page of the selection, oldest first, as CSV and as JSON Lines', async () => {
    database = await openPortalSqlite(':memory:');
    const store = createAuditStore(database.db);
    await store.append(Array.from({ length: 7 }, (_, i) => record(i + 1)));

    const csv = (await collect(await exportLines(store, auditFilterSchema.parse({}), 'csv', 2)))
      .trimEnd()
      .split('\r\n');
    expect(csv).toHaveLength(8);
    expect(csv[1]).toMatch(/^1,2026-11-01T12:00:01\.000Z,sign_in_failed,,user1@example\.com,/);
    expect(csv[7]).toContain('user7@example.com');

    const jsonl = await collect(
      await exportLines(store, auditFilterSchema.parse({ event: 'send' }), 'jsonl', 2),
    );
    const rows = jsonl
      .trim()
      .split('\n')
      .map((line) => auditEntrySchema.parse(JSON.parse(line)));
    expect(rows.map((row) => row.details.n)).toEqual([2, 4, 6]);
  });
});
