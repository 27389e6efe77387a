import type {
  ImportWorkerApi,
  Opened,
  OpenOptions,
  OpenResult,
} from '@/core/import/worker/import-api';
import type { DateOrder, MappingTemplate } from '@/domain';
import { groupDigits } from '@/shared/lib/format';
import type { ImportSummary } from './import-view';
import { withTemplate } from './templates';

/**
 * An import as the page drives it: one file at a time, per kind and client org, its work done
 * by the import's worker. A plain object: what it works with is passed in (the worker, the tray,
 * the saved templates), so every branch is tested without React, with the worker's own code
 * in-process. The page's hook keeps what it shows in React state.
 */

/** What the import page shows. */
export interface ImportView {
  opened: Opened['meta'] | null;
  summary: ImportSummary | null;
  /** Changes whenever rows may have changed: the grid fetches what it shows again. */
  version: number;
  /** What the worker is doing, while it is ("Reading people.csv…"). */
  busy: string | null;
  /** The last thing that went wrong, in words the user can act on. */
  problem: string | null;
  /** The last thing done ("47 requisitions added to the batch."). */
  done: string | null;
  /** False when the browser would not keep the import over a reload. */
  stored: boolean;
}

export const initialImportView: ImportView = {
  opened: null,
  summary: null,
  version: 0,
  busy: 'Looking for an import in progress…',
  problem: null,
  done: null,
  stored: true,
};

/** A change to the view; one that sets `summary` makes the grid fetch its rows again. */
export type ImportViewPatch = Partial<Omit<ImportView, 'version'>>;

export function applyImportPatch(view: ImportView, patch: ImportViewPatch): ImportView {
  return { ...view, ...patch, version: 'summary' in patch ? view.version + 1 : view.version };
}

/** The worker's calls, each a promise (as Comlink makes them). */
export type ImportWorkerPort = {
  [K in keyof ImportWorkerApi]: ImportWorkerApi[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

export interface ImportSessionDeps {
  worker: ImportWorkerPort;
  kind: { noun: { one: string; many: string } };
  maxBatch: number;
  /**
   * What a file is opened with: the kind, the rules' settings, what rows must not repeat (the
   * page gives newer ones with setOptions).
   */
  options: OpenOptions;
  /** The batch the rows go to. */
  tray: {
    /** How many items it holds now. */
    count(): number;
    /** Appends items: their ids once stored, or null when none was added. */
    add(wires: ReadonlyArray<Record<string, string>>): Promise<string[] | null>;
  };
  templates: { get(): MappingTemplate[]; set(list: MappingTemplate[]): void };
  download(text: string, fileName: string, type: string): void;
  /**
   * Shows a change. `slices`: a file's view (counts, columns, the grid), which React may draw in
   * slices so no single task holds the page while a 100,000-row file appears.
   */
  show(patch: ImportViewPatch, slices?: boolean): void;
}

export interface ImportSession {
  /** What files are opened and checked with from now on (the batch, history or list changed). */
  setOptions(options: OpenOptions): void;
  /** How many rows the batch can take now. */
  room(): number;
  /** The import kept from before (a reload, another visit), if any. */
  restore(): Promise<void>;
  open(input: Blob | string, name: string): Promise<void>;
  chooseSheet(name: string): Promise<void>;
  setColumn(column: number, key: string): Promise<void>;
  setDateOrder(order: DateOrder | null): Promise<void>;
  applyTemplate(template: MappingTemplate): Promise<void>;
  saveTemplate(name: string): Promise<void>;
  editCell(index: number, column: number, value: string): Promise<void>;
  replaceInColumn(column: number, find: string, replace: string, columnName: string): Promise<void>;
  /** Adds the valid rows (of `only`, when given) to the batch; returns how many. */
  addValid(only?: readonly number[]): Promise<number>;
  /** The valid rows (of `only`, when given), at most `limit`, with their sheet row numbers. */
  validRows(
    limit: number,
    only?: readonly number[],
  ): Promise<Array<{ rowNumber: number; wire: Record<string, string> }>>;
  exportErrors(): Promise<void>;
  discard(): Promise<void>;
  /** Rows repeating what is in the batch or was sent are flagged as the batch and history change. */
  knownChanged(): Promise<void>;
  /** Rows checked against their requisition are checked again when the list arrives or changes. */
  requisitionsChanged(): Promise<void>;
}

/** What a file in the worker was checked against, besides the rules: sent with it when it opens. */
const checkedAgainst = (sent: OpenOptions) => ({
  known: sent.known,
  requisitions: sent.requisitions,
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createImportSession(deps: ImportSessionDeps): ImportSession {
  const { worker, kind, maxBatch, tray } = deps;
  let options = deps.options;
  const show = (patch: ImportViewPatch, slices = false) => deps.show(patch, slices);
  const showSummary = (summary: ImportSummary) => show({ summary }, true);
  let opened: Opened['meta'] | null = null;
  let dateOrder: DateOrder | null = null;
  // What the worker's file was last checked against: sent with a file when it opens, and again
  // only when it changes (checking 100,000 rows twice on opening is work for nothing).
  let checkedWith: ReturnType<typeof checkedAgainst> | null = null;
  /** Each refresh of the checks counts; an answer to one overtaken by another is dropped. */
  let knownRound = 0;
  let requisitionsRound = 0;

  const summaryShown = (summary: ImportSummary) => {
    dateOrder = summary.dateOrder;
    showSummary(summary);
  };

  /** Runs one call to the worker, with what it is doing shown and its failure reported. */
  async function run<T>(doing: string, call: () => Promise<T>): Promise<T | null> {
    show({ busy: doing, problem: null, done: null });
    try {
      return await call();
    } catch (error) {
      show({ problem: `${message(error)} Nothing you did was lost; try again.` });
      return null;
    } finally {
      show({ busy: null });
    }
  }

  function accept(result: OpenResult | null, sent: OpenOptions) {
    if (!result) return;
    if (!result.ok) {
      show({ problem: result.message });
      return;
    }
    checkedWith = checkedAgainst(sent);
    opened = result.opened.meta;
    dateOrder = result.opened.summary.dateOrder;
    show({ opened, stored: result.opened.stored, summary: result.opened.summary }, true);
    // The file is stored just after the answer: the warning shows if that failed.
    void worker.saved().then(
      (stored) => show({ stored }),
      () => show({ stored: false }),
    );
  }

  const room = () => Math.max(0, maxBatch - tray.count());

  return {
    setOptions(next) {
      options = next;
    },

    room,

    async restore() {
      const sent = options;
      try {
        const restored = await worker.restore(sent);
        show({ busy: null });
        if (!restored) return;
        checkedWith = checkedAgainst(sent);
        opened = restored.meta;
        dateOrder = restored.summary.dateOrder;
        show({ opened }, true);
        showSummary(restored.summary);
      } catch (error) {
        show({
          busy: null,
          problem: `The import in progress could not be read back (${message(error)}).`,
        });
      }
    },

    async open(input, name) {
      const sent = options;
      accept(
        await run<OpenResult>(`Reading and checking ${name}…`, () =>
          worker.open(input, name, sent),
        ),
        sent,
      );
    },

    async chooseSheet(name) {
      const sent = options;
      accept(
        await run<OpenResult>(`Reading sheet “${name}”…`, () => worker.chooseSheet(name, sent)),
        sent,
      );
    },

    async setColumn(column, key) {
      const next = await run('Checking the rows again…', () => worker.setColumn(column, key));
      if (next) summaryShown(next);
    },

    async setDateOrder(order) {
      const next = await run('Checking the dates again…', () => worker.setDateOrder(order));
      if (next) summaryShown(next);
    },

    async applyTemplate(template) {
      const next = await run(`Applying “${template.name}”…`, () => worker.applyTemplate(template));
      if (!next) return;
      if (opened) opened = { ...opened, template: template.name };
      show({ opened });
      summaryShown(next);
      show({ done: `Columns mapped by the template “${template.name}”.` });
    },

    async saveTemplate(name) {
      const mapping = await run('Saving the template…', () => worker.currentMapping());
      if (!mapping) return;
      deps.templates.set(
        withTemplate(deps.templates.get(), {
          name,
          mapping,
          ...(dateOrder ? { dateOrder } : {}),
        }),
      );
      if (opened) opened = { ...opened, template: name };
      show({
        opened,
        done: `Template “${name}” saved. A file with these column names will be mapped by it without a click.`,
      });
    },

    async editCell(index, column, value) {
      const next = await run('Checking the row…', () => worker.editCell(index, column, value));
      if (next) summaryShown(next);
    },

    async replaceInColumn(column, find, replace, columnName) {
      const result = await run('Replacing…', () => worker.replaceInColumn(column, find, replace));
      if (!result) return;
      summaryShown(result.summary);
      show({
        done:
          result.replaced === 0
            ? `No cell in ${columnName} holds “${find}”.`
            : `Replaced “${find}” in ${result.replaced === 1 ? 'one cell' : `${groupDigits(result.replaced)} cells`} of ${columnName}.`,
      });
    },

    async validRows(limit, only) {
      return worker.validItems(limit, only ? [...only] : undefined);
    },

    async addValid(only) {
      const limit = room();
      if (limit === 0) {
        show({
          problem: `The batch already holds ${maxBatch} ${kind.noun.many}, as many as the VMS takes at once. Send it, then add the next rows.`,
        });
        return 0;
      }
      const items = await run('Adding rows to the batch…', () =>
        worker.validItems(limit, only ? [...only] : undefined),
      );
      if (!items) return 0;
      if (items.length === 0) {
        show({ problem: 'None of the selected rows is ready: fix their errors first.' });
        return 0;
      }
      const ids = await tray.add(items.map((item) => item.wire));
      if (!ids) {
        show({
          problem:
            'The browser would not store the batch, so no row was added. Free some space (Settings → browser storage) and try again.',
        });
        return 0;
      }
      const next = await run('Adding rows to the batch…', () =>
        worker.markAdded(
          items.map((item) => item.index),
          'is already in the batch',
        ),
      );
      if (next) summaryShown(next);
      const count = items.length;
      const skipped = only ? only.length - count : 0;
      show({
        done: `${count === 1 ? `One ${kind.noun.one}` : `${groupDigits(count)} ${kind.noun.many}`} added to the batch.${skipped > 0 ? ` ${skipped === 1 ? 'One selected row was' : `${skipped} selected rows were`} not added: ${skipped === 1 ? 'it has' : 'they have'} errors${count === limit ? ' or the batch is full' : ''}.` : ''}`,
      });
      return count;
    },

    async exportErrors() {
      const csv = await run('Preparing the rows with errors…', () => worker.errorCsv());
      if (csv === null || !opened) return;
      const base = opened.fileName.replace(/\.[^.]*$/, '') || kind.noun.many;
      // A byte-order mark, so Excel reads the accents as UTF-8.
      deps.download(`\ufeff${csv}`, `${base}-errors.csv`, 'text/csv;charset=utf-8');
    },

    async discard() {
      await run('Discarding the import…', () => worker.discard(options.storeKey));
      opened = null;
      checkedWith = null;
      show({ opened: null, summary: null });
    },

    async knownChanged() {
      const { known } = options;
      if (!opened || !checkedWith || checkedWith.known === known) return;
      checkedWith = { ...checkedWith, known };
      const round = (knownRound += 1);
      const next = await worker.setKnown(known).catch(() => null);
      if (next && round === knownRound) summaryShown(next);
    },

    async requisitionsChanged() {
      const { requisitions } = options;
      if (!opened || !checkedWith || checkedWith.requisitions === requisitions) return;
      checkedWith = { ...checkedWith, requisitions };
      const round = (requisitionsRound += 1);
      const next = await worker.setRequisitions(requisitions).catch(() => null);
      if (next && round === requisitionsRound) summaryShown(next);
    },
  };
}
