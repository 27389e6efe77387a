/**
 * The import benchmark's peer, in a Web Worker as the portal's import is (bench/import.ts):
 * Papa Parse alone on the file's text, then the domain's item rules alone (`itemProblems`) on
 * the rows already mapped to wire items. Each is timed on its own; reading and decoding the
 * file and mapping the rows are left out, as they are not "parse alone" or "validate alone".
 * `portalSteps` times the portal's own import code (src/core/import) step by step, in this same
 * kind of worker, to show where the portal's time goes.
 */
import '@/shared/lib/zod-config';
import * as Comlink from 'comlink';
import Papa from 'papaparse';
import type { DateFormat } from '@/domain';
import {
  catalogOf,
  decodeSheet,
  itemProblems,
  mapHeaders,
  rowToItem,
  sheetDefaults,
} from '@/domain';
import { portalSteps } from './portal-steps';

export interface PeerOptions {
  dateFormat: DateFormat;
  org: string;
}

export interface PeerTimes {
  rows: number;
  /** Items the rules reject (a repeated reference is not an item's own problem). */
  invalidItems: number;
  parseMs: number;
  validateMs: number;
}

async function parseThenValidate(file: Blob, options: PeerOptions): Promise<PeerTimes> {
  const { text } = decodeSheet(new Uint8Array(await file.arrayBuffer()));

  let start = performance.now();
  // The options the portal's reader gives Papa Parse (read-sheet.ts): the delimiter guessed.
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const parseMs = performance.now() - start;

  const [headers = [], ...rows] = parsed.data;
  const catalog = catalogOf('requisition');
  const columns = mapHeaders(headers, catalog);
  const defaults = sheetDefaults('requisition', columns, options.org);
  const items = rows.map((row) => ({
    ...defaults,
    ...rowToItem(row, columns, catalog, options.dateFormat).wire,
  }));

  start = performance.now();
  let invalidItems = 0;
  for (const item of items)
    if (itemProblems('requisition', item, { dateFormat: options.dateFormat }).length > 0)
      invalidItems += 1;
  const validateMs = performance.now() - start;

  return { rows: rows.length, invalidItems, parseMs, validateMs };
}

const api = { parseThenValidate, portalSteps };
export type PeerWorkerApi = typeof api;

Comlink.expose(api);
