import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { requisitionListSchema } from '@/domain/requisition-record';
import { requestJson } from '@/shared/api/http';
import { databases } from '@/shared/storage/user-owned';
import { listedRequisition, servePageOrigin } from '@/test-support/page-origin';
import { twoConnectionSettings } from '@/test-support/portal-settings';
import { readStartData, startFirstLoad, type StartData } from './first-load';

/*
 * The list asked for as the worker starts, against a real HTTP server standing in for the portal.
 * The browser's list of IndexedDB databases (`indexedDB.databases()`) is given per test: Node has
 * no IndexedDB.
 */
let origin: Awaited<ReturnType<typeof servePageOrigin>>;
const asked: Array<{ url: string; connection: string | undefined; accept: string | undefined }> =
  [];

beforeAll(async () => {
  origin = await servePageOrigin((request, response) => {
    asked.push({
      url: request.url ?? '',
      connection: request.headers['x-vms-connection'] as string | undefined,
      accept: request.headers.accept,
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify([listedRequisition('Night nurse')]));
  });
});

afterAll(() => origin.close());

afterEach(() => {
  asked.length = 0;
  vi.unstubAllGlobals();
});

/** UAT, the second connection, is the default here. */
const settings: PortalConfigResponse = { ...twoConnectionSettings, defaultConnection: 'uat' };

const noChoices = { 'vms-portal:v1:connection': null, 'vms-portal:v1:client-org': null };
const start = (config: unknown, storage: StartData['storage'] = noChoices): StartData => ({
  config: JSON.stringify(config),
  storage,
});
/** A browser holding these IndexedDB databases. */
const browserWith = (...names: string[]) =>
  vi.stubGlobal('indexedDB', { databases: () => Promise.resolve(names.map((name) => ({ name }))) });

describe('startFirstLoad', () => {
  it('on a first visit, asks once for the default connection’s first client org, naming the connection', async () => {
    browserWith(databases.lists);
    const first = await startFirstLoad(start(settings));
    expect(first?.request.orgs).toEqual({ clientOrgId: 2001, vendorOrgId: 9100 });
    expect(first?.connection).toBe('uat');
    // The answer is the one the sync's own call reads, through requestJson.
    const answer = await requestJson(
      '/api/vms/requisitions?Client_Org_Id=2001&Vendor_Org_Id=9100',
      requisitionListSchema,
      'Loading the requisitions',
      first ? { started: first.started } : {},
    );
    expect(answer.data.map((record) => record.fields.titlerole)).toEqual(['Night nurse']);
    expect(asked).toEqual([
      {
        url: '/api/vms/requisitions?Client_Org_Id=2001&Vendor_Org_Id=9100',
        connection: 'uat',
        accept: 'application/json',
      },
    ]);
  });

  it('asks nothing when a choice is stored, when a copy may exist, or with sign-in on', async () => {
    browserWith();
    expect(
      await startFirstLoad(start(settings, { ...noChoices, 'vms-portal:v1:client-org': '1002' })),
    ).toBeNull();
    expect(await startFirstLoad(start({ ...settings, authRequired: true }))).toBeNull();
    expect(await startFirstLoad(start({ clientOrgIds: 'not settings' }))).toBeNull();
    browserWith(databases.requisitions);
    expect(await startFirstLoad(start(settings))).toBeNull();
    // A browser that cannot list its databases may hold a copy.
    vi.stubGlobal('indexedDB', undefined);
    expect(await startFirstLoad(start(settings))).toBeNull();
    expect(asked).toEqual([]);
  });
});

describe('readStartData', () => {
  it('reads what the start script writes, and nothing else', () => {
    const data = start(settings);
    expect(readStartData(`#${encodeURIComponent(JSON.stringify(data))}`)).toEqual(data);
    expect(readStartData('')).toBeNull();
    expect(readStartData('#not%20json')).toBeNull();
    expect(readStartData(`#${encodeURIComponent('[1,2]')}`)).toBeNull();
    expect(
      readStartData(`#${encodeURIComponent(JSON.stringify({ config: 7, storage: {} }))}`),
    ).toBeNull();
    expect(
      readStartData(
        `#${encodeURIComponent(JSON.stringify({ config: null, storage: { key: 1 } }))}`,
      ),
    ).toBeNull();
  });
});

describe('the worker’s first step', () => {
  it('imports nothing, and asks for the list with no zod, no React and no store loaded', async () => {
    const result = await build({
      entryPoints: [join(import.meta.dirname, 'sync.worker.ts')],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      outdir: join(import.meta.dirname, 'out'),
      metafile: true,
      logLevel: 'silent',
      alias: { '@': join(import.meta.dirname, '..', '..') },
    });
    const outputs = result.metafile.outputs;
    const output = (path: string | undefined) => (path ? outputs[path] : undefined);
    const entry = Object.keys(outputs).find((path) =>
      output(path)?.entryPoint?.endsWith('sync.worker.ts'),
    );
    // Nothing can be bundled into the entry that the rest of the worker would import again.
    expect(Object.keys(output(entry)?.inputs ?? {})).toEqual([
      'src/shared/requisitions/sync.worker.ts',
    ]);
    expect(
      output(entry)?.imports.filter((imported) => imported.kind === 'import-statement'),
    ).toEqual([]);
    // first-load.ts and what it imports statically: what runs before the list is asked for.
    const firstLoad = Object.keys(outputs).find((path) =>
      Object.keys(output(path)?.inputs ?? {}).includes('src/shared/requisitions/first-load.ts'),
    );
    const loaded = new Set<string>();
    const visit = (path: string | undefined) => {
      const found = output(path);
      if (!path || !found || loaded.has(path)) return;
      loaded.add(path);
      for (const imported of found.imports)
        if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit(firstLoad);
    const modules = [...loaded].flatMap((path) => Object.keys(output(path)?.inputs ?? {}));
    expect(modules).toContain('src/shared/requisitions/first-load.ts');
    expect(modules.filter((module) => /node_modules|local-store|sync-worker/.test(module))).toEqual(
      [],
    );
  });
});
