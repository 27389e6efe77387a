import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { addManyToTray, trayStore } from '@/core/batch/hooks/use-batch-tray';
import { createImportApi, type OpenOptions } from '@/core/import/worker/import-api';
import { identityKey, type MappingTemplate } from '@/domain';
import { settingDefaults } from '@/domain/settings';
import { databases } from '@/shared/storage/user-owned';
import {
  applyImportPatch,
  createImportSession,
  initialImportView,
  type ImportSessionDeps,
  type ImportView,
  type ImportViewPatch,
  type ImportWorkerPort,
} from './import-session';

/*
 * The import page's session, with the import worker's own code run in-process (each
 * createImportApi a worker; a new one is a reload) and a real IndexedDB implementation where the
 * browser keeps the import and the batch. Expected messages are written from what the session
 * promises the user, not copied from a run.
 */

const dateFormat = settingDefaults.dateFormat;
const headers = [
  'Job title',
  'Number of openings',
  'Client internal req',
  'Engagement type',
  'Req class ID',
  'Hours per day',
  'Days per week',
  'Short description',
  'Requisition owner ID',
  'Start date',
];
/** A valid requisition row; `change` sets cells by column. */
const row = (reference: string, change: Record<number, string> = {}): string[] => {
  const cells = [
    'Staff nurse',
    '2',
    reference,
    '1',
    '101',
    '8',
    '5',
    'Night shift on ward 3',
    'mreyes',
    '2027-01-11',
  ];
  for (const [column, value] of Object.entries(change)) cells[Number(column)] = value;
  return cells;
};
const daysColumn = 6;
const tsv = (rows: string[][]) => [headers, ...rows].map((cells) => cells.join('\t')).join('\n');

/** The worker's calls as Comlink makes them: each a promise. */
function inProcessWorker(): ImportWorkerPort {
  const api = createImportApi();
  return Object.fromEntries(
    Object.entries(api).map(([name, call]) => [
      name,
      async (...args: unknown[]) => (call as (...a: unknown[]) => unknown)(...args),
    ]),
  ) as ImportWorkerPort;
}

let clientOrgId = 5000;

interface Harness {
  session: ReturnType<typeof createImportSession>;
  worker: ImportWorkerPort;
  view(): ImportView;
  shown: Array<{ patch: ImportViewPatch; slices: boolean }>;
  downloads: Array<{ text: string; fileName: string; type: string }>;
  templates: MappingTemplate[];
  tray: ReturnType<typeof trayStore>;
  options: OpenOptions;
}

/** A page on the import of one kind for a fresh client org (or `org`'s, to come back to it). */
function page(
  overrides: Partial<Omit<ImportSessionDeps, 'options'>> & {
    org?: number;
    options?: Partial<OpenOptions>;
  } = {},
): Harness {
  const { org: orgOverride, options: optionOverrides, ...deps } = overrides;
  const org = orgOverride ?? (clientOrgId += 1);
  const tray = trayStore('requisition', org);
  let view = initialImportView;
  const shown: Harness['shown'] = [];
  const downloads: Harness['downloads'] = [];
  const saved: { list: MappingTemplate[] } = { list: [] };
  const worker = deps.worker ?? inProcessWorker();
  const options: OpenOptions = {
    kind: 'requisition',
    dateFormat,
    org: String(org),
    storeKey: `import:requisition:${org}`,
    templates: [],
    known: [],
    requisitions: undefined,
    ...optionOverrides,
  };
  const session = createImportSession({
    worker,
    kind: { noun: { one: 'requisition', many: 'requisitions' } },
    maxBatch: 500,
    options,
    tray: {
      count: () => tray.get().items.length,
      add: (wires) =>
        addManyToTray(tray, wires, () => crypto.randomUUID(), '2026-11-23T10:00:00.000Z'),
    },
    templates: { get: () => saved.list, set: (list) => (saved.list = list) },
    download: (text, fileName, type) => downloads.push({ text, fileName, type }),
    show: (patch, slices = false) => {
      view = applyImportPatch(view, patch);
      shown.push({ patch, slices });
    },
    ...deps,
  });
  return {
    session,
    worker,
    view: () => view,
    shown,
    downloads,
    get templates() {
      return saved.list;
    },
    tray,
    options,
  };
}

async function opened(rows: string[][], overrides: Parameters<typeof page>[0] = {}) {
  const harness = page(overrides);
  await harness.session.open(tsv(rows), 'nurses.tsv');
  expect(harness.view().opened?.fileName).toBe('nurses.tsv');
  // Kept in the browser just after the answer, as the page waits to say.
  expect(await harness.worker.saved()).toBe(true);
  return harness;
}

const rowErrors = async (worker: ImportWorkerPort) =>
  (await worker.window(0, 100, false)).rows.map((entry) => entry.errors.map((e) => e.message));

beforeEach(() => {
  // Each test's page is its own client org: nothing is shared through the stores.
  clientOrgId += 10;
});

describe('opening a file', () => {
  it('shows the file, its counts and that it is kept, the work shown while it is done', async () => {
    const harness = page();
    await harness.session.open(
      tsv([row('R-1'), row('R-2'), row('R-3', { [daysColumn]: '9' })]),
      'nurses.tsv',
    );
    const view = harness.view();
    expect(view.opened).toMatchObject({ fileName: 'nurses.tsv', template: null });
    expect(view.summary).toMatchObject({ rows: 3, valid: 2, withErrors: 1 });
    expect(view.busy).toBeNull();
    expect(view.problem).toBeNull();
    expect(view.version).toBe(1);
    expect(harness.shown[0]?.patch).toEqual({
      busy: 'Reading and checking nurses.tsv…',
      problem: null,
      done: null,
    });
    // The file's view is drawn in slices; the rest at once.
    expect(harness.shown.find((entry) => 'summary' in entry.patch)?.slices).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(harness.view().stored).toBe(true);
  });

  it('says what is wrong with a file that has no rows, and opens nothing', async () => {
    const harness = page();
    await harness.session.open(headers.join('\t'), 'empty.tsv');
    expect(harness.view().opened).toBeNull();
    expect(harness.view().problem).toMatch(/^empty\.tsv has no rows under a header row\./);
  });

  it('brings the file and what was done to it back after a reload, on the same client org', async () => {
    const first = await opened([row('R-1'), row('R-2', { [daysColumn]: '9' })]);
    await first.session.editCell(1, daysColumn, '5');
    expect(first.view().summary).toMatchObject({ valid: 2, edited: 1 });

    const again = page({ org: Number(first.options.org) });
    await again.session.restore();
    expect(again.view().opened?.fileName).toBe('nurses.tsv');
    expect(again.view().summary).toMatchObject({ rows: 2, valid: 2, edited: 1 });
    expect(again.view().busy).toBeNull();
  });

  it('opens nothing where no import was kept', async () => {
    const harness = page();
    await harness.session.restore();
    expect(harness.view()).toMatchObject({ opened: null, summary: null, busy: null });
  });

  it('says so when the kept import cannot be read back', async () => {
    const first = await opened([row('R-1')]);
    const db = await openDB(databases.imports);
    const kept = (await db.get('states', first.options.storeKey)) as { meta: unknown };
    await db.put('states', { meta: kept.meta, state: null }, first.options.storeKey);
    db.close();

    const again = page({ org: Number(first.options.org) });
    await again.session.restore();
    expect(again.view().opened).toBeNull();
    expect(again.view().problem).toMatch(/^The import in progress could not be read back \(/);
  });

  it('asks for the file again to pick another sheet, after a reload or before any file', async () => {
    const none = page();
    await none.session.chooseSheet('Sheet2');
    expect(none.view().problem).toBe('Choose the file again to pick another sheet.');

    const first = await opened([row('R-1')]);
    const again = page({ org: Number(first.options.org) });
    await again.session.restore();
    await again.session.chooseSheet('Sheet2');
    expect(again.view().problem).toBe(
      'Choose nurses.tsv again to pick another of its sheets (they are not kept over a reload).',
    );
    expect(again.view().opened?.fileName).toBe('nurses.tsv');
  });
});

describe('changing the import', () => {
  it('reports a change that fails, and that nothing was lost', async () => {
    const harness = page();
    const noFile = 'No file is open; choose a file to import. Nothing you did was lost; try again.';
    for (const change of [
      () => harness.session.setColumn(0, 'titlerole'),
      () => harness.session.setDateOrder('day-first'),
      () => harness.session.applyTemplate({ name: 'Ward sheets', mapping: {} }),
      () => harness.session.saveTemplate('Ward sheets'),
      () => harness.session.editCell(0, 0, 'Welder'),
      () => harness.session.replaceInColumn(0, 'a', 'b', 'Job title'),
      () => harness.session.addValid(),
    ]) {
      await change();
      expect(harness.view()).toMatchObject({ problem: noFile, busy: null, done: null });
    }
    expect(harness.templates).toEqual([]);
    expect(harness.shown.some((entry) => 'summary' in entry.patch)).toBe(false);
  });

  it('checks the rows again when a column is mapped otherwise, or the date order is said', async () => {
    const harness = await opened([row('R-1'), row('R-2')]);
    const before = harness.view().version;
    await harness.session.setColumn(daysColumn, '');
    expect(harness.view().summary?.valid).toBe(0);
    expect(harness.view().version).toBe(before + 1);
    await harness.session.setDateOrder('day-first');
    expect(harness.view().summary?.dateOrder).toBe('day-first');
  });

  it('saves the mapping as a template, with the date order said, and applies one', async () => {
    const harness = await opened([row('R-1')]);
    await harness.session.setDateOrder('month-first');
    await harness.session.saveTemplate('Ward sheets');
    expect(harness.templates).toEqual([
      expect.objectContaining({ name: 'Ward sheets', dateOrder: 'month-first' }),
    ]);
    expect(harness.templates[0]?.mapping['Job title']).toBe('titlerole');
    expect(harness.view().opened?.template).toBe('Ward sheets');
    expect(harness.view().done).toMatch(/^Template “Ward sheets” saved\./);

    await harness.session.applyTemplate({ name: 'No days', mapping: { 'Days per week': '' } });
    expect(harness.view().opened?.template).toBe('No days');
    expect(harness.view().summary?.valid).toBe(0);
    expect(harness.view().done).toBe('Columns mapped by the template “No days”.');
  });

  it('saves a template without a date order when none was said', async () => {
    const harness = await opened([row('R-1')]);
    await harness.session.saveTemplate('Plain');
    expect(harness.templates[0]).not.toHaveProperty('dateOrder');
  });

  it('says how many cells a replace changed, none, one or several', async () => {
    const harness = await opened([row('R-1'), row('R-2'), row('R-3')]);
    await harness.session.replaceInColumn(0, 'Welder', 'Fitter', 'Job title');
    expect(harness.view().done).toBe('No cell in Job title holds “Welder”.');
    await harness.session.replaceInColumn(2, 'R-1', 'R-10', 'Client internal req');
    expect(harness.view().done).toBe('Replaced “R-1” in one cell of Client internal req.');
    await harness.session.replaceInColumn(0, 'nurse', 'midwife', 'Job title');
    expect(harness.view().done).toBe('Replaced “nurse” in 3 cells of Job title.');
  });
});

describe('adding rows to the batch', () => {
  it('adds the valid rows, which leave the import, and says how many', async () => {
    const harness = await opened([row('R-1'), row('R-2', { [daysColumn]: '9' }), row('R-3')]);
    expect(await harness.session.addValid()).toBe(2);
    expect(harness.tray.get().items.map((item) => item.wire['clientinternalreq'])).toEqual([
      'R-1',
      'R-3',
    ]);
    expect(harness.view().summary).toMatchObject({ rows: 1, valid: 0 });
    expect(harness.view().done).toBe('2 requisitions added to the batch.');
  });

  it('says which selected rows were not added, and that the batch may be full', async () => {
    const harness = await opened([row('R-1'), row('R-2', { [daysColumn]: '9' }), row('R-3')]);
    expect(await harness.session.addValid([0, 1])).toBe(1);
    expect(harness.view().done).toBe(
      'One requisition added to the batch. One selected row was not added: it has errors.',
    );

    const full = await opened([row('R-4'), row('R-5'), row('R-6')], { maxBatch: 2 });
    expect(await full.session.addValid([0, 1, 2])).toBe(2);
    expect(full.view().done).toBe(
      '2 requisitions added to the batch. One selected row was not added: it has errors or the batch is full.',
    );
  });

  it('adds nothing to a full batch, or when no selected row is ready', async () => {
    const full = await opened([row('R-1'), row('R-2'), row('R-3')], { maxBatch: 2 });
    await full.session.addValid();
    expect(full.session.room()).toBe(0);
    expect(await full.session.addValid()).toBe(0);
    expect(full.view().problem).toBe(
      'The batch already holds 2 requisitions, as many as the VMS takes at once. Send it, then add the next rows.',
    );

    const invalid = await opened([row('R-1', { [daysColumn]: '9' })]);
    expect(await invalid.session.addValid()).toBe(0);
    expect(invalid.view().problem).toBe(
      'None of the selected rows is ready: fix their errors first.',
    );
    expect(invalid.tray.get().items).toEqual([]);
  });
});

describe('leaving an import', () => {
  it('exports the rows with errors as a CSV Excel reads as UTF-8, named after the file', async () => {
    const harness = await opened([row('R-1'), row('R-2', { [daysColumn]: '9' })]);
    await harness.session.exportErrors();
    expect(harness.downloads).toHaveLength(1);
    const [download] = harness.downloads;
    expect(download?.fileName).toBe('nurses-errors.csv');
    expect(download?.type).toBe('text/csv;charset=utf-8');
    expect(download?.text.startsWith('\ufeff')).toBe(true);
    expect(download?.text).toContain('R-2');
    expect(download?.text).not.toContain('R-1');
  });

  it('exports nothing without a file, saying why', async () => {
    const harness = page();
    await harness.session.exportErrors();
    expect(harness.downloads).toEqual([]);
    expect(harness.view().problem).toMatch(/^No file is open;/);
  });

  it('discards the import: nothing is shown, and a reload brings nothing back', async () => {
    const harness = await opened([row('R-1')]);
    const version = harness.view().version;
    await harness.session.discard();
    expect(harness.view()).toMatchObject({ opened: null, summary: null });
    expect(harness.view().version).toBe(version + 1);
    const again = page({ org: Number(harness.options.org) });
    await again.session.restore();
    expect(again.view().opened).toBeNull();
  });
});

describe('checking rows against what changes meanwhile', () => {
  it('flags rows that repeat what reached the batch or was sent, once the page says so', async () => {
    const harness = await opened([row('R-1'), row('R-2')]);
    await harness.session.knownChanged();
    // Unchanged: not checked again.
    expect(harness.shown.filter((entry) => 'summary' in entry.patch)).toHaveLength(1);

    harness.session.setOptions({
      ...harness.options,
      known: [[identityKey('requisition', { clientinternalreq: 'R-2' }), 'was sent in batch rb_7']],
    });
    await harness.session.knownChanged();
    expect(harness.view().summary).toMatchObject({ valid: 1, withErrors: 1 });
    expect((await rowErrors(harness.worker))[1]?.join(' ')).toContain('was sent in batch rb_7');
  });

  it('shows only the answer to the latest change when they overlap', async () => {
    // The worker's first answer comes late, after the second.
    const worker = inProcessWorker();
    let calls = 0;
    const setKnown = worker.setKnown;
    worker.setKnown = async (known) => {
      const answer = await setKnown(known);
      calls += 1;
      if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 50));
      return answer;
    };
    const harness = await opened([row('R-1'), row('R-2')], { worker });
    const known = (reference: string): Array<[string, string]> => [
      [identityKey('requisition', { clientinternalreq: reference }), 'is already in the batch'],
    ];
    harness.session.setOptions({ ...harness.options, known: known('R-1') });
    const first = harness.session.knownChanged();
    harness.session.setOptions({ ...harness.options, known: [] });
    const second = harness.session.knownChanged();
    await Promise.all([first, second]);
    expect(harness.view().summary).toMatchObject({ valid: 2, withErrors: 0 });
  });

  it('checks nothing before a file is open', async () => {
    const harness = page();
    harness.session.setOptions({ ...harness.options, known: [['x', 'y']] });
    await harness.session.knownChanged();
    await harness.session.requisitionsChanged();
    expect(harness.shown).toEqual([]);
  });

  it('checks candidate rows against their requisition when the list arrives', async () => {
    const harness = page({
      options: { kind: 'candidate' },
    });
    await harness.session.open(
      ['First name\tLast name\tReq ID', 'Ada\tLovelace\t40001'].join('\n'),
      'people.tsv',
    );
    const unknownRequisition = 'This client org has no requisition 40001 in the list';
    expect((await rowErrors(harness.worker))[0]?.join(' ')).not.toContain(unknownRequisition);
    harness.session.setOptions({ ...harness.options, kind: 'candidate', requisitions: new Map() });
    await harness.session.requisitionsChanged();
    expect((await rowErrors(harness.worker))[0]?.join(' ')).toContain(unknownRequisition);
  });
});
