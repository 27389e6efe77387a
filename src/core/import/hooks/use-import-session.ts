import {
  startTransition,
  useCallback,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { DateOrder, MappingTemplate, SheetRequisition } from '../../../domain';
import {
  notSubmittableText,
  recordNotSubmittable,
  requisitionRecordShape,
  todayIso,
} from '../../../domain';
import { useOrgScope } from '../../../shared/config/org-context';
import { useRequisitionList } from '../../../shared/config/use-requisition-list';
import type { PortalConfig } from '../../../shared/config/portal-config';
import { storageKey, useLocalStore } from '../../../shared/storage/local-store';
import { workScope } from '../../../shared/config/current-connection';
import { downloadText } from '../../../shared/ui/json-actions';
import { useBatchTray } from '../../batch/hooks/use-batch-tray';
import { useSubmissions } from '../../batch/hooks/use-submissions';
import type { BatchKind } from '../../batch/model/batch-kind';
import { importWorker } from '../api/import-worker';
import type { ImportSummary } from '../model/import-table';
import { knownIdentities } from '../model/known-items';
import { templatesStore, withTemplate } from '../model/templates';
import type { Opened, OpenOptions, OpenResult } from '../worker/import.worker';
import { groupDigits } from '../../../shared/lib/format';

/** What the import page shows and can do: one file at a time, per kind and client org. */
export interface ImportSession {
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
  templates: MappingTemplate[];
  /** How many rows the batch can take now. */
  room: number;
  /** The page that shows the batch (and sends it). */
  batchPath: string;
  open(input: File | string, name: string): Promise<void>;
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
}

/** What a file in the worker was checked against, besides the rules: sent with it when it opens. */
const checkedAgainst = (sent: OpenOptions) => ({
  known: sent.known,
  requisitions: sent.requisitions,
});

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function useImportSession(
  kind: BatchKind,
  clientOrgId: number,
  config: PortalConfig,
): ImportSession {
  const worker = importWorker();
  const tray = useBatchTray(kind.id, clientOrgId, { suspend: false });
  const submissions = useSubmissions();
  const templateStore = templatesStore(kind.id, clientOrgId);
  const templates = useLocalStore(templateStore);
  const [opened, setOpened] = useState<Opened['meta'] | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState<string | null>('Looking for an import in progress…');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [stored, setStored] = useState(true);

  // The client org's requisitions (the browser's copy, refreshed): new requisitions must not
  // repeat their client internal reqs, candidates are checked against theirs.
  const records = useRequisitionList(useOrgScope()).data;
  const known = useMemo(
    () => knownIdentities(kind.id, clientOrgId, tray.state.items, submissions, records),
    [kind.id, clientOrgId, tray.state.items, submissions, records],
  );
  const requisitions = useMemo(() => {
    if (kind.id !== 'candidate' || !records) return undefined;
    const today = todayIso();
    return new Map<string, SheetRequisition>(
      records.map((record) => [
        record.reqId,
        {
          shape: requisitionRecordShape(record),
          notSubmittable: notSubmittableText(
            recordNotSubmittable(record, config.dateFormat, today),
          ),
        },
      ]),
    );
  }, [kind.id, records, config.dateFormat]);
  const storeKey = storageKey('import', kind.id, workScope(clientOrgId));
  const options: OpenOptions = useMemo(
    () => ({
      kind: kind.id,
      dateFormat: config.dateFormat,
      org: String(clientOrgId),
      storeKey,
      templates,
      known,
      requisitions,
    }),
    [kind.id, config.dateFormat, clientOrgId, storeKey, templates, known, requisitions],
  );

  // A file's view (counts, columns, the grid) is drawn in a transition: React draws it in slices,
  // so no single task holds the page while a 100,000-row file appears.
  const showSummary = useCallback((next: ImportSummary) => {
    startTransition(() => {
      setSummary(next);
      setVersion((value) => value + 1);
    });
  }, []);

  /** Runs one call to the worker, with what it is doing shown and its failure reported. */
  const run = useCallback(async <T>(doing: string, call: () => Promise<T>): Promise<T | null> => {
    setBusy(doing);
    setProblem(null);
    setDone(null);
    try {
      return await call();
    } catch (error) {
      setProblem(`${message(error)} Nothing you did was lost; try again.`);
      return null;
    } finally {
      setBusy(null);
    }
  }, []);

  // What the worker's file was last checked against: sent with a file when it opens, and again
  // only when it changes (checking 100,000 rows twice on opening is work for nothing).
  const checkedWith = useRef<Pick<OpenOptions, 'known' | 'requisitions'> | null>(null);
  const accept = useCallback(
    (result: OpenResult | null, sent: OpenOptions) => {
      if (!result) return;
      if (!result.ok) {
        setProblem(result.message);
        return;
      }
      checkedWith.current = checkedAgainst(sent);
      startTransition(() => {
        setOpened(result.opened.meta);
        setStored(result.opened.stored);
        showSummary(result.opened.summary);
      });
      // The file is stored just after the answer: the warning shows if that failed.
      void worker.saved().then(setStored, () => setStored(false));
    },
    [showSummary, worker],
  );

  // The import kept from before (a reload, another visit), for this kind and client org (the
  // page is remounted for another).
  const restore = useEffectEvent(async () => {
    const sent = options;
    const restored = await worker.restore(sent);
    if (restored) checkedWith.current = checkedAgainst(sent);
    return restored;
  });
  useEffect(() => {
    let current = true;
    restore().then(
      (restored) => {
        if (!current) return;
        setBusy(null);
        if (!restored) return;
        setOpened(restored.meta);
        showSummary(restored.summary);
      },
      (error: unknown) => {
        if (!current) return;
        setBusy(null);
        setProblem(`The import in progress could not be read back (${message(error)}).`);
      },
    );
    return () => {
      current = false;
    };
  }, [showSummary]);

  // Rows repeating what is in the batch or was sent are flagged as the batch and history change.
  const hasFile = opened !== null;
  useEffect(() => {
    if (!hasFile || !checkedWith.current || checkedWith.current.known === known) return;
    checkedWith.current = { ...checkedWith.current, known };
    let current = true;
    void worker.setKnown(known).then(
      (next) => {
        if (current) showSummary(next);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [worker, known, hasFile, showSummary]);

  // Candidates are checked again when the list of requisitions arrives or changes.
  useEffect(() => {
    if (!hasFile || kind.id !== 'candidate' || !checkedWith.current) return;
    if (checkedWith.current.requisitions === requisitions) return;
    checkedWith.current = { ...checkedWith.current, requisitions };
    let current = true;
    void worker.setRequisitions(requisitions).then(
      (next) => {
        if (current) showSummary(next);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [worker, requisitions, hasFile, kind.id, showSummary]);

  const room = Math.max(0, config.maxBatch - tray.state.items.length);

  return {
    opened,
    summary,
    version,
    busy,
    problem,
    done,
    stored,
    templates,
    room,
    batchPath: kind.formPath(tray.state.items[0]?.wire ?? {}),
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
      if (next) showSummary(next);
    },
    async setDateOrder(order) {
      const next = await run('Checking the dates again…', () => worker.setDateOrder(order));
      if (next) showSummary(next);
    },
    async applyTemplate(template) {
      const next = await run(`Applying “${template.name}”…`, () => worker.applyTemplate(template));
      if (!next) return;
      setOpened((meta) => (meta ? { ...meta, template: template.name } : meta));
      showSummary(next);
      setDone(`Columns mapped by the template “${template.name}”.`);
    },
    async saveTemplate(name) {
      const mapping = await run('Saving the template…', () => worker.currentMapping());
      if (!mapping) return;
      const dateOrder = summary?.dateOrder ?? undefined;
      templateStore.set(
        withTemplate(templateStore.get(), { name, mapping, ...(dateOrder ? { dateOrder } : {}) }),
      );
      setOpened((meta) => (meta ? { ...meta, template: name } : meta));
      setDone(
        `Template “${name}” saved. A file with these column names will be mapped by it without a click.`,
      );
    },
    async editCell(index, column, value) {
      const next = await run('Checking the row…', () => worker.editCell(index, column, value));
      if (next) showSummary(next);
    },
    async replaceInColumn(column, find, replace, columnName) {
      const result = await run('Replacing…', () => worker.replaceInColumn(column, find, replace));
      if (!result) return;
      showSummary(result.summary);
      setDone(
        result.replaced === 0
          ? `No cell in ${columnName} holds “${find}”.`
          : `Replaced “${find}” in ${result.replaced === 1 ? 'one cell' : `${groupDigits(result.replaced)} cells`} of ${columnName}.`,
      );
    },
    async validRows(limit, only) {
      return worker.validItems(limit, only ? [...only] : undefined);
    },
    async addValid(only) {
      const limit = room;
      if (limit === 0) {
        setProblem(
          `The batch already holds ${config.maxBatch} ${kind.noun.many}, as many as the VMS takes at once. Send it, then add the next rows.`,
        );
        return 0;
      }
      const items = await run('Adding rows to the batch…', () =>
        worker.validItems(limit, only ? [...only] : undefined),
      );
      if (!items) return 0;
      if (items.length === 0) {
        setProblem('None of the selected rows is ready: fix their errors first.');
        return 0;
      }
      const ids = await tray.addMany(items.map((item) => item.wire));
      if (!ids) {
        setProblem(
          'The browser would not store the batch, so no row was added. Free some space (Settings → browser storage) and try again.',
        );
        return 0;
      }
      const next = await run('Adding rows to the batch…', () =>
        worker.markAdded(
          items.map((item) => item.index),
          'is already in the batch',
        ),
      );
      if (next) showSummary(next);
      const count = items.length;
      const skipped = only ? only.length - count : 0;
      setDone(
        `${count === 1 ? `One ${kind.noun.one}` : `${groupDigits(count)} ${kind.noun.many}`} added to the batch.${skipped > 0 ? ` ${skipped === 1 ? 'One selected row was' : `${skipped} selected rows were`} not added: ${skipped === 1 ? 'it has' : 'they have'} errors${count === limit ? ' or the batch is full' : ''}.` : ''}`,
      );
      return count;
    },
    async exportErrors() {
      const csv = await run('Preparing the rows with errors…', () => worker.errorCsv());
      if (csv === null || !opened) return;
      const base = opened.fileName.replace(/\.[^.]*$/, '') || kind.noun.many;
      // A byte-order mark, so Excel reads the accents as UTF-8.
      downloadText(`\ufeff${csv}`, `${base}-errors.csv`, 'text/csv;charset=utf-8');
    },
    async discard() {
      await run('Discarding the import…', () => worker.discard(storeKey));
      setOpened(null);
      setSummary(null);
      setVersion((value) => value + 1);
    },
  };
}
