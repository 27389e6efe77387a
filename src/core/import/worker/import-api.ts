import * as Comlink from 'comlink';
import type { ImportMeta } from '@/core/import/model/import-store';
import { dropImport, loadImport, saveSource, saveState } from '@/core/import/model/import-store';
import { ImportTable } from '@/core/import/model/import-table';
import type { GridRow, ImportOptions, ImportSummary } from '@/core/import/model/import-view';
import type { ReadSheets } from '@/core/import/model/read-sheet';
import { readSheets, UnreadableFile } from '@/core/import/model/read-sheet';
import type { DateOrder, MappingTemplate } from '@/domain';
import { chooseTemplate, sheetBody } from '@/domain';

/**
 * What the import's Web Worker does (import.worker.ts serves it): reads the file, maps and checks
 * every row, and keeps them, so the page's thread only draws what is in view. Each change is
 * stored (import-store.ts) before its answer is given, so what the page shows is what a reload
 * brings back. One instance per worker; tests make their own.
 */
export interface OpenOptions extends ImportOptions {
  /** Where the import is kept: one per kind and client org. */
  storeKey: string;
  templates: MappingTemplate[];
  /** Identities already in the batch or sent, with where, as `identityKey` writes them. */
  known: Array<[string, string]>;
}

export interface Opened {
  meta: ImportMeta;
  summary: ImportSummary;
  /** False when the browser would not store the import (it will not survive a reload). */
  stored: boolean;
}

/** Errors the page shows as they are: the file cannot be read, or has nothing to import. */
export type OpenResult = { ok: true; opened: Opened } | { ok: false; message: string };

export function createImportApi() {
  let table: ImportTable | null = null;
  let storeKey = '';
  let meta: ImportMeta | null = null;
  let sheets: ReadSheets['sheets'] = [];
  /** Writes go one after another, so the last state stored is the last one made. */
  let writes: Promise<boolean> = Promise.resolve(true);
  /** The storing of the file last opened: the page is answered first and asks after it. */
  let sourceSaved: Promise<boolean> = Promise.resolve(true);

  function queue(write: () => Promise<boolean>): Promise<boolean> {
    writes = writes.then(write, write).catch(() => false);
    return writes;
  }

  /**
   * Resolves in a task after this one. Comlink posts a method's answer a few microtasks after the
   * method returns; work queued in a microtask beside it runs first and holds the answer back.
   */
  const afterAnswer = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

  function current(): ImportTable {
    if (!table) throw new Error('No file is open; choose a file to import.');
    return table;
  }

  async function persistState(): Promise<boolean> {
    const open = current();
    const savedMeta = meta;
    if (!savedMeta) return false;
    const state = open.state();
    return queue(() => saveState(storeKey, savedMeta, state));
  }

  async function loadSheet(
    name: string,
    options: OpenOptions,
    fileMeta: Omit<ImportMeta, 'sheet' | 'template'>,
  ): Promise<OpenResult> {
    const sheet = sheets.find((entry) => entry.name === name) ?? sheets[0];
    const body = sheetBody(sheet?.rows ?? []);
    if (!sheet || !body)
      return {
        ok: false,
        message: `${fileMeta.fileName}${sheets.length > 1 ? ` (sheet “${sheet?.name ?? name}”)` : ''} has no rows under a header row. Put the column names in row 1 and the ${options.kind}s under them.`,
      };
    const { rows, rowNumbers } = body;
    const headers = [...body.header];
    const template = chooseTemplate(headers, options.templates);
    const next = new ImportTable(options);
    next.load(headers, rows, template?.mapping ?? {}, rowNumbers, template?.dateOrder);
    next.setKnown(new Map(options.known));
    table = next;
    storeKey = options.storeKey;
    meta = { ...fileMeta, sheet: sheet.name, template: template?.name ?? null };
    const savedMeta = meta;
    // Stored after the answer: the user sees the rows ~100 ms sooner (IndexedDB's put copies every
    // row before it returns), and `saved()` tells the page whether the import will survive a
    // reload. Later writes queue behind it, in order.
    sourceSaved = queue(async () => {
      await afterAnswer();
      return saveSource(options.storeKey, { headers, rows, rowNumbers }, savedMeta, next.state());
    });
    return { ok: true, opened: { meta: savedMeta, summary: next.summary(), stored: true } };
  }

  return {
    /** Reads a file (or pasted cells: a string) and checks it; the first sheet unless named. */
    async open(input: Blob | string, fileName: string, options: OpenOptions): Promise<OpenResult> {
      let read: ReadSheets;
      try {
        const bytes =
          typeof input === 'string'
            ? new TextEncoder().encode(input)
            : new Uint8Array(await input.arrayBuffer());
        read = await readSheets(typeof input === 'string' ? 'pasted.tsv' : fileName, bytes);
      } catch (error) {
        if (error instanceof UnreadableFile) return { ok: false, message: error.message };
        throw error;
      }
      sheets = read.sheets;
      return loadSheet(read.sheets[0]?.name ?? '', options, {
        fileName,
        format: read.format,
        sheetNames: read.sheets.map((sheet) => sheet.name),
        openedAt: new Date().toISOString(),
      });
    },

    /** Another sheet of the workbook opened last. */
    async chooseSheet(name: string, options: OpenOptions): Promise<OpenResult> {
      if (!meta) return { ok: false, message: 'Choose the file again to pick another sheet.' };
      if (sheets.length === 0)
        return {
          ok: false,
          message: `Choose ${meta.fileName} again to pick another of its sheets (they are not kept over a reload).`,
        };
      return loadSheet(name, options, meta);
    },

    /** The import kept from before a reload, or null. */
    async restore(options: OpenOptions): Promise<Opened | null> {
      const saved = await loadImport(options.storeKey).catch(() => null);
      if (!saved) return null;
      const next = new ImportTable(options);
      next.restore(saved.source, saved.state);
      next.setKnown(new Map(options.known));
      table = next;
      storeKey = options.storeKey;
      meta = saved.meta;
      sheets = [];
      return { meta: saved.meta, summary: next.summary(), stored: true };
    },

    summary(): ImportSummary {
      return current().summary();
    },

    /** Whether the file last opened was stored (false: a reload would lose the import). */
    saved(): Promise<boolean> {
      return sourceSaved;
    },

    window(start: number, count: number, onlyErrors: boolean): { total: number; rows: GridRow[] } {
      return current().window(start, count, onlyErrors);
    },

    /** Which rows of the list have errors (the grid's row heights), handed over without a copy. */
    errorFlags(onlyErrors: boolean): Uint8Array {
      const flags = current().errorFlags(onlyErrors);
      return Comlink.transfer(flags, [flags.buffer]);
    },

    async setColumn(column: number, key: string): Promise<ImportSummary> {
      current().setColumn(column, key);
      await persistState();
      return current().summary();
    },

    async setDateOrder(order: DateOrder | null): Promise<ImportSummary> {
      current().setDateOrder(order);
      await persistState();
      return current().summary();
    },

    async applyTemplate(template: MappingTemplate): Promise<ImportSummary> {
      current().setMapping(template.mapping, template.dateOrder);
      if (meta) meta = { ...meta, template: template.name };
      await persistState();
      return current().summary();
    },

    currentMapping(): Record<string, string> {
      return current().currentMapping();
    },

    async editCell(index: number, column: number, value: string): Promise<ImportSummary> {
      current().editCell(index, column, value);
      await persistState();
      return current().summary();
    },

    async replaceInColumn(
      column: number,
      find: string,
      replace: string,
    ): Promise<{ replaced: number; summary: ImportSummary }> {
      const replaced = current().replaceInColumn(column, find, replace);
      if (replaced > 0) await persistState();
      return { replaced, summary: current().summary() };
    },

    setRequisitions(requisitions: OpenOptions['requisitions']): ImportSummary {
      current().setRequisitions(requisitions);
      return current().summary();
    },

    setKnown(known: Array<[string, string]>): ImportSummary {
      current().setKnown(new Map(known));
      return current().summary();
    },

    validItems(
      limit: number,
      only?: number[],
    ): Array<{ index: number; rowNumber: number; wire: Record<string, string> }> {
      return current().validItems(limit, only);
    },

    /** Rows now in the batch leave the import; stored before the answer. */
    async markAdded(indices: number[], where: string): Promise<ImportSummary> {
      current().markAdded(indices, where);
      await persistState();
      return current().summary();
    },

    errorCsv(): string {
      return current().errorCsv();
    },

    async discard(key: string): Promise<void> {
      table = null;
      meta = null;
      sheets = [];
      await queue(() => dropImport(key).then(() => true));
    },
  };
}

export type ImportWorkerApi = ReturnType<typeof createImportApi>;
