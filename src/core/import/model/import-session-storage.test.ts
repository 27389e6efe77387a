// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { addManyToTray, trayStore } from '@/core/batch/hooks/use-batch-tray';
import { createImportApi } from '@/core/import/worker/import-api';
import { settingDefaults } from '@/domain/settings';
import {
  applyImportPatch,
  createImportSession,
  initialImportView,
  type ImportWorkerPort,
} from './import-session';

// A browser that keeps nothing more: jsdom has no IndexedDB (the import cannot be kept over a
// reload, and the batch is kept in localStorage), and localStorage is filled to its quota (5,000,000 characters in jsdom).

describe('an import where the browser will not keep more', () => {
  it('says the import will not survive a reload, and adds no row the batch could not keep', async () => {
    const api = createImportApi();
    const worker = Object.fromEntries(
      Object.entries(api).map(([name, call]) => [
        name,
        async (...args: unknown[]) => (call as (...a: unknown[]) => unknown)(...args),
      ]),
    ) as ImportWorkerPort;
    const tray = trayStore('requisition', 7001);
    let view = initialImportView;
    const session = createImportSession({
      worker,
      kind: { noun: { one: 'requisition', many: 'requisitions' } },
      maxBatch: 500,
      options: {
        kind: 'requisition',
        dateFormat: settingDefaults.dateFormat,
        org: '7001',
        storeKey: 'import:requisition:7001',
        templates: [],
        known: [],
      },
      tray: {
        count: () => tray.get().items.length,
        add: (wires) => addManyToTray(tray, wires, () => crypto.randomUUID(), 'now'),
      },
      templates: { get: () => [], set: () => {} },
      download: () => {},
      show: (patch) => {
        view = applyImportPatch(view, patch);
      },
    });
    const cells = [
      'Staff nurse',
      '2',
      'R-1',
      '1',
      '101',
      '8',
      '5',
      'Night shift on ward 3',
      'mreyes',
      '2027-01-11',
    ];
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
    await session.open([headers, cells].map((line) => line.join('\t')).join('\n'), 'one.tsv');
    expect(view.summary?.valid).toBe(1);
    await api.saved();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(view.stored).toBe(false);

    await tray.ready;
    localStorage.setItem('filler', 'x'.repeat(4_999_950));
    expect(await session.addValid()).toBe(0);
    expect(view.problem).toBe(
      'The browser would not store the batch, so no row was added. Free some space (Settings → browser storage) and try again.',
    );
    expect(tray.get().items).toEqual([]);
    // The row is still in the import, to add once there is room.
    expect(view.summary).toMatchObject({ rows: 1, valid: 1 });
  });
});
