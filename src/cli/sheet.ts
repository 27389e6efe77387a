/**
 * Sheets for the validator: a CSV or TSV file read as the import page reads it. Bytes are
 * decoded as UTF-8 (a byte-order mark dropped) or, when they are not valid UTF-8, as
 * Windows-1252 (what Excel on Windows saves as "CSV"); Papa Parse finds the delimiter; headers
 * and cells go through the domain's spreadsheet rules.
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import Papa from 'papaparse';
import { z } from 'zod';
import type { DateFormat, PayloadKind, SheetReport } from '../domain';
import {
  candidateCatalog,
  checkSheet,
  mapHeaders,
  requisitionCatalog,
  validateCandidateItem,
  validateRequisitionItem,
} from '../domain';
import { UsageError } from './usage-error';

const sheetExtensions = new Set(['.csv', '.tsv', '.txt']);

export const isSheetFile = (file: string) => sheetExtensions.has(extname(file).toLowerCase());

/** UTF-8 when the bytes are UTF-8 (BOM or not), else Windows-1252. */
export function decodeSheet(bytes: Uint8Array): { text: string; encoding: string } {
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return { text, encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'Windows-1252' };
  }
}

const mappingSchema = z.record(z.string(), z.string());

function readMapping(path: string | undefined): Record<string, string> {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the mapping ${path}: ${(error as Error).message}`);
  }
  try {
    return mappingSchema.parse(JSON.parse(text));
  } catch {
    throw new UsageError(
      `the mapping ${path} must be a JSON object from header to wire name, such as {"Our ref": "clientinternalreq", "Notes": ""}`,
    );
  }
}

export function checkSheetFile(
  kind: PayloadKind,
  file: string,
  {
    dateFormat,
    mapping,
    org,
  }: { dateFormat: DateFormat; mapping: string | undefined; org?: string | undefined },
): SheetReport {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new UsageError(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  const { text } = decodeSheet(bytes);
  const parsed = Papa.parse<string[]>(text, { skipEmptyLines: 'greedy' });
  const [headers, ...rows] = parsed.data;
  if (!headers || rows.length === 0)
    throw new UsageError(`${file} has no rows under a header row; put the field names in row 1`);
  const catalog = kind === 'requisition' ? requisitionCatalog : candidateCatalog;
  const columns = mapHeaders(headers, catalog, readMapping(mapping));
  if (columns.every((column) => column.key === null))
    throw new UsageError(
      `${file}: no header names a ${kind} field (row 1 reads ${headers.slice(0, 5).join(', ')}…); name the columns by label or wire name, or give --mapping`,
    );
  // A sheet of requisitions without a request type column is a sheet of new ones; rows without
  // an Org ID column are for --org's client org.
  const requestTypeGiven = columns.some((column) => column.key === 'requesttype');
  const orgGiven = columns.some((column) => column.key === 'orgid');
  const defaults: Record<string, string> = {
    ...(kind === 'requisition' && !requestTypeGiven ? { requesttype: 'I' } : {}),
    ...(kind === 'requisition' && !orgGiven && org !== undefined ? { orgid: org } : {}),
  };
  return checkSheet(rows, columns, {
    catalog,
    dateFormat,
    validate: (item) => {
      if (kind === 'candidate') {
        const result = validateCandidateItem(item, { dateFormat });
        return result.ok ? [] : result.issues;
      }
      const result = validateRequisitionItem({ ...defaults, ...item }, { dateFormat });
      return result.ok ? [] : result.issues;
    },
    identity: (item) =>
      kind === 'requisition'
        ? (item['requesttype'] ?? 'I') === 'I' && (item['clientinternalreq'] ?? '') !== ''
          ? { field: 'clientinternalreq', value: item['clientinternalreq'] ?? '' }
          : null
        : (item['candemail'] ?? '') !== ''
          ? {
              field: 'candemail',
              value: `${(item['candemail'] ?? '').toLowerCase()} to requisition ${item['requirementid'] ?? ''}`,
            }
          : null,
  });
}
