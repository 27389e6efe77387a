import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PortalConfigResponse } from '@/domain/portal-config';
import { requisitionListSchema } from '@/domain/requisition-record';
import { requestJson } from '@/shared/api/http';
import { databases } from '@/shared/storage/user-owned';
import { readStartData, startFirstLoad, type StartData } from './first-load';

/*
 * The list asked for as the worker starts, against a real HTTP server standing in for the portal.
 * The browser's list of IndexedDB databases (`indexedDB.databases()`) is given per test: Node has
 * no IndexedDB.
 */
let server: Server;
let base = '';
const asked: Array<{ url: string; connection: string | undefined; accept: string | undefined }> =
  [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push({
      url: request.url ?? '',
      connection: request.headers['x-vms-connection'] as string | undefined,
      accept: request.headers.accept,
    });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify([
        {
          Req_Id: '40001',
          TitleRole: 'Night nurse',
          Req_Updated_Date_Time: '2026-11-20T10:00:00Z',
        },
      ]),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The page's own origin: the worker asks for '/api/vms/…', which a browser resolves against it.
  globalThis.fetch = (input, init) =>
    realFetch(typeof input === 'string' ? new URL(input, base) : input, init);
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  asked.length = 0;
  vi.unstubAllGlobals();
});

const connection = (name: string, orgs: number[], vendor: number) => ({
  name,
  label: name.toUpperCase(),
  production: false,
  kind: 'remote' as const,
  clientOrgIds: orgs,
  clientOrgNames: {},
  vendorOrgId: vendor,
  dateFormat: 'YYYY-MM-DD' as const,
  maxBatch: 500,
  timeoutMs: 30_000,
  upstream: { kind: 'remote' as const, label: `${name}.example` },
});

const settings: PortalConfigResponse = {
  authRequired: false,
  clientOrgIds: [1001, 1002],
  clientOrgNames: {},
  vendorOrgId: 9001,
  dateFormat: 'YYYY-MM-DD',
  maxBatch: 500,
  timeoutMs: 30_000,
  upstream: { kind: 'sandbox', label: 'sandbox.example' },
  connections: [connection('sandbox', [1001, 1002], 9001), connection('uat', [2001], 9100)],
  defaultConnection: 'uat',
};

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
  it('loads no zod, no React and no store before it asks for the list', async () => {
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
    const entry = Object.keys(outputs).find((path) =>
      outputs[path]?.entryPoint?.endsWith('sync.worker.ts'),
    );
    // The entry and what it imports statically: what runs before its first await.
    const loaded = new Set<string>();
    const visit = (path: string) => {
      const output = outputs[path];
      if (!output || loaded.has(path)) return;
      loaded.add(path);
      for (const imported of output.imports)
        if (imported.kind === 'import-statement') visit(imported.path);
    };
    visit(entry ?? '');
    const modules = [...loaded].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}));
    expect(modules).toContain('src/shared/requisitions/first-load.ts');
    expect(modules.filter((module) => /node_modules|local-store|sync-worker/.test(module))).toEqual(
      [],
    );
    // The rest is loaded by the entry, once it has asked.
    expect(modules.length).toBeLessThan(
      Object.values(outputs).flatMap((o) => Object.keys(o.inputs)).length,
    );
  });
});
