/**
 * Where the portal's import spends its time: the steps import-api.ts's `open` takes, each
 * timed, by the portal's own code (src/core/import) in a worker like the portal's. Then, for
 * comparison, the row checker alone and its two halves (cells to wire items, the item rules)
 * on the same rows, after the import's steps so they do not warm its code first.
 */
import { saveSource } from '@/core/import/model/import-store';
import { ImportTable } from '@/core/import/model/import-table';
import { parseDelimited } from '@/core/import/model/read-sheet';
import type { DateFormat } from '@/domain';
import {
  catalogOf,
  decodeSheet,
  itemProblems,
  mapHeaders,
  rowToItem,
  sheetDefaults,
  sheetRowChecker,
} from '@/domain';

export type StepTimes = Record<string, number>;

export async function portalSteps(
  file: Blob,
  options: { dateFormat: DateFormat; org: string },
): Promise<StepTimes> {
  const times: StepTimes = {};
  let start = performance.now();
  const lap = (step: string) => {
    const now = performance.now();
    times[step] = now - start;
    start = now;
  };

  const bytes = new Uint8Array(await file.arrayBuffer());
  lap('read the file');
  const { text } = decodeSheet(bytes);
  lap('decode');
  const { rows: sheetRows } = parseDelimited(text);
  lap('parse (read-sheet.ts, Papa Parse)');
  const [headers = [], ...rows] = sheetRows;
  const table = new ImportTable({ kind: 'requisition', ...options });
  table.load(headers, rows, {});
  lap('ImportTable.load (map, check, repeats)');
  table.setKnown(new Map());
  lap('ImportTable.setKnown');
  const summary = table.summary();
  lap('summary');
  const stored = await saveSource(
    'bench:requisition:1001',
    { headers, rows: sheetRows.slice(1) },
    {
      fileName: 'bench.csv',
      format: 'CSV, UTF-8',
      sheetNames: ['Sheet 1'],
      sheet: 'Sheet 1',
      template: null,
      openedAt: new Date().toISOString(),
    },
    table.state(),
  );
  lap('IndexedDB store (saveSource)');
  if (!stored) throw new Error('IndexedDB refused the import');
  if (summary.rows !== rows.length) throw new Error(`summary counts ${summary.rows} rows`);

  const catalog = catalogOf('requisition');
  const columns = mapHeaders(headers, catalog);
  const check = sheetRowChecker('requisition', columns, options);
  start = performance.now();
  for (const row of rows) check(row);
  lap('(apart) sheetRowChecker on every row');
  const defaults = sheetDefaults('requisition', columns, options.org);
  const items = rows.map((row) => ({
    ...defaults,
    ...rowToItem(row, columns, catalog, options.dateFormat).wire,
  }));
  lap('(apart) cells to wire items (rowToItem)');
  for (const item of items) itemProblems('requisition', item, { dateFormat: options.dateFormat });
  lap('(apart) item rules (itemProblems)');
  return times;
}
