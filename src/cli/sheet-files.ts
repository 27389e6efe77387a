import { extname } from 'node:path';

/** Sheets the validator reads as text (CSV, TSV), by file name. */
const textSheets = new Set(['.csv', '.tsv', '.txt']);

export const isSheetFile = (file: string) => textSheets.has(extname(file).toLowerCase());
export const isXlsxFile = (file: string) => extname(file).toLowerCase() === '.xlsx';
