import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { portalConfigSchema } from '@/domain/portal-config';
import { portalSchemaVersion } from '@/server/portal-schema';
import { testConfig } from '@/test-support/capture-upstream';
import { buildPortal } from './app';
import { loadConfig } from './config';
import { journalRoutes } from './journal/journal-routes';
import { ConnectionUpstreams } from './proxy/connection-upstreams';

// These routes never reach the upstream, so in-process requests (inject) are enough here.
const upstream = 'http://127.0.0.1:9/vms/';
let distDir: string;

beforeAll(() => {
  distDir = mkdtempSync(join(tmpdir(), 'portal-dist-'));
  mkdirSync(join(distDir, 'assets'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>portal</title>');
  writeFileSync(join(distDir, 'assets', 'index-AbC123.js'), 'console.log(1)');
  writeFileSync(join(distDir, 'favicon.svg'), '<svg/>');
});

afterAll(() => rmSync(distDir, { recursive: true, force: true }));

function portal(options: { distDir?: string } = {}) {
  return buildPortal(testConfig(upstream, { LOG_LEVEL: 'silent' }), {
    distDir: options.distDir ?? distDir,
  });
}

describe('GET /api/config and /api/health', () => {
  it('gives the browser the non-secret settings, named after the upstream host', async () => {
    const app = buildPortal(
      testConfig(upstream, { LOG_LEVEL: 'silent', VMS_CLIENT_ORGS: '1001:Northwind Health,1002' }),
      { distDir },
    );
    const res = await app.inject('/api/config');
    expect(res.statusCode).toBe(200);
    const body = portalConfigSchema.parse(res.json());
    expect(body).toEqual({
      clientOrgIds: [1001, 1002],
      clientOrgNames: { '1001': 'Northwind Health' },
      vendorOrgId: 9001,
      dateFormat: 'YYYY-MM-DD',
      maxBatch: 500,
      timeoutMs: 30_000,
      upstream: { kind: 'remote', label: '127.0.0.1:9' },
      connections: [
        {
          name: 'default',
          label: '127.0.0.1:9',
          production: true,
          kind: 'remote',
          clientOrgIds: [1001, 1002],
          clientOrgNames: { '1001': 'Northwind Health' },
          vendorOrgId: 9001,
          dateFormat: 'YYYY-MM-DD',
          maxBatch: 500,
          timeoutMs: 30_000,
          upstream: { kind: 'remote', label: '127.0.0.1:9' },
        },
      ],
      defaultConnection: 'default',
      authRequired: false,
    });
    expect(res.body).not.toContain('test-key');
    expect(res.body).not.toContain('test-secret');
  });

  it('lists the connections by name, label and kind, and nothing that reaches them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-connections-'));
    const secrets = {
      UAT_KEY: 'uat-key-5c2e81f0a9',
      UAT_SECRET: 'uat-secret-7b4d93e1c6',
      PROD_KEY: 'prod-key-1a8f47d2e3',
      PROD_SECRET: 'prod-secret-9e6c05b7a4',
    };
    const remoteConnection = (name: string, baseUrl: string, key: string, production: boolean) => ({
      name,
      label: name === 'uat' ? 'Acme UAT' : 'Acme',
      baseUrl,
      apiKeyEnv: `${key}_KEY`,
      apiSecretEnv: `${key}_SECRET`,
      clientOrgs: [{ id: 1001 }],
      vendorOrgId: 9001,
      production,
    });
    try {
      writeFileSync(
        join(dir, 'connections.json'),
        JSON.stringify({
          connections: [
            { name: 'sandbox', label: 'Sandbox', sandbox: true },
            remoteConnection('uat', upstream, 'UAT', false),
            remoteConnection('production', 'https://vms.acme-prod.example/api/', 'PROD', true),
          ],
          default: 'uat',
        }),
      );
      const config = loadConfig({
        ...secrets,
        VMS_CONNECTIONS: join(dir, 'connections.json'),
        LOG_LEVEL: 'silent',
        PORTAL_DB: ':memory:',
      });
      const res = await buildPortal(config, { distDir, sandboxUrl: 'http://127.0.0.1:9' }).inject(
        '/api/config',
      );
      const body = portalConfigSchema.parse(res.json());
      expect(
        body.connections.map(({ name, label, production, kind, upstream }) => ({
          name,
          label,
          production,
          kind,
          upstream,
        })),
      ).toEqual([
        {
          name: 'sandbox',
          label: 'Sandbox',
          production: false,
          kind: 'sandbox',
          upstream: { kind: 'sandbox', label: 'sandbox' },
        },
        {
          name: 'uat',
          label: 'Acme UAT',
          production: false,
          kind: 'remote',
          upstream: { kind: 'remote', label: 'Acme UAT' },
        },
        {
          name: 'production',
          label: 'Acme',
          production: true,
          kind: 'remote',
          upstream: { kind: 'remote', label: 'Acme' },
        },
      ]);
      // Each with the orgs and limits a page sends with on it.
      expect(body.connections[1]).toMatchObject({ clientOrgIds: [1001], vendorOrgId: 9001 });
      expect(body.defaultConnection).toBe('uat');
      for (const secret of Object.values(secrets)) expect(res.body).not.toContain(secret);
      expect(res.body).not.toContain('acme-prod');
      expect(res.body).not.toContain('UAT_KEY');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('labels the embedded sandbox as such', async () => {
    const app = buildPortal(loadConfig({ LOG_LEVEL: 'silent', PORTAL_DB: ':memory:' }), {
      distDir,
      sandboxUrl: 'http://127.0.0.1:9',
    });
    const body = portalConfigSchema.parse((await app.inject('/api/config')).json());
    expect(body.upstream).toEqual({ kind: 'sandbox', label: 'sandbox' });
  });

  it('refuses to build in sandbox mode without the sandbox address', () => {
    expect(() => buildPortal(loadConfig({ PORTAL_DB: ':memory:' }))).toThrow(/startPortal/);
  });

  it('answers health checks', async () => {
    const res = await portal().inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      // The postgres test project runs this file with DATABASE_URL (vite.config.ts).
      database: {
        kind: process.env.PORTAL_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite',
        schemaVersion: portalSchemaVersion,
      },
    });
  });
});

describe('serving the app', () => {
  it('serves index.html for / and for client routes that ask for HTML, never cached', async () => {
    const app = portal();
    for (const url of ['/', '/requisitions/new', '/batches/42?tab=results']) {
      const res = await app.inject({ url, headers: { accept: 'text/html,*/*' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>portal</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toContain('text/html');
    }
  });

  it('lets hashed assets be cached for a year, other files revalidated', async () => {
    const app = portal();
    const asset = await app.inject('/assets/index-AbC123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 with the error body for missing files and unknown API paths', async () => {
    const app = portal();
    for (const url of ['/assets/missing.js', '/api/nothing', '/api']) {
      const res = await app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(apiErrorBodySchema.parse(res.json()).error.code).toBe('not_found');
    }
    const post = await app.inject({ method: 'POST', url: '/somewhere' });
    expect(post.statusCode).toBe(404);
  });

  it('says to run the build when dist/ is missing', async () => {
    const app = portal({ distDir: join(distDir, 'nope') });
    const res = await app.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(503);
    const { error } = apiErrorBodySchema.parse(res.json());
    expect(error.code).toBe('app_not_built');
    expect(error.message).toContain('npm run build');
    expect((await app.inject('/api/health')).statusCode).toBe(200);
  });
});

describe('the first page load', () => {
  let builtDir: string;
  const script = 'export const page = "amend";'.repeat(40);
  beforeAll(() => {
    builtDir = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    mkdirSync(join(builtDir, 'assets'));
    writeFileSync(
      join(builtDir, 'index.html'),
      '<!doctype html><html><head><title>portal</title></head><body></body></html>',
    );
    writeFileSync(join(builtDir, 'assets', 'amend-1.js'), script);
    writeFileSync(join(builtDir, 'assets', 'amend-1.js.br'), brotliCompressSync(script));
    writeFileSync(
      join(builtDir, 'route-preloads.json'),
      JSON.stringify({
        routes: [
          { path: '/requisitions', scripts: ['assets/list-1.js'], styles: [] },
          {
            path: '/requisitions/amend/:reqId?',
            scripts: ['assets/amend-1.js', 'assets/form-2.js'],
            styles: ['assets/form-3.css'],
          },
        ],
        notFound: { scripts: ['assets/not-found-4.js'], styles: [] },
      }),
    );
  });
  afterAll(() => rmSync(builtDir, { recursive: true, force: true }));

  const settingsIn = (html: string) => {
    const match = /<script type="application\/json" id="portal-config">(.*?)<\/script>/s.exec(html);
    return match ? portalConfigSchema.parse(JSON.parse(match[1] ?? '')) : null;
  };

  it('carries the settings of /api/config, so the app renders without asking for them', async () => {
    const app = portal({ distDir: builtDir });
    const page = await app.inject({ url: '/requisitions', headers: { accept: 'text/html' } });
    const config = portalConfigSchema.parse((await app.inject('/api/config')).json());
    expect(settingsIn(page.body)).toEqual(config);
    expect(page.body).not.toContain('test-secret');
  });

  it('names the chunks of the page asked for, matching the route patterns, for the page to preload', async () => {
    const app = portal({ distDir: builtDir });
    const linksOf = async (url: string) => {
      const html = (await app.inject({ url, headers: { accept: 'text/html' } })).body;
      const modules = /<script type="application\/json" id="page-modules">(.*?)<\/script>/.exec(
        html,
      );
      return [
        ...[...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map(
          (match) => `stylesheet ${match[1]}`,
        ),
        ...(JSON.parse(modules?.[1] ?? '[]') as string[]).map((file) => `module ${file}`),
      ];
    };
    expect(await linksOf('/requisitions/amend/42')).toEqual([
      'stylesheet /assets/form-3.css',
      'module /assets/amend-1.js',
      'module /assets/form-2.js',
    ]);
    expect(await linksOf('/requisitions/amend')).toContain('module /assets/amend-1.js');
    expect(await linksOf('/Requisitions?status=open')).toEqual(['module /assets/list-1.js']);
    expect(await linksOf('/requisitions/amend/42/extra')).toEqual([
      'module /assets/not-found-4.js',
    ]);
  });

  it('sends the brotli copy of a file to a browser that accepts it, the file to others', async () => {
    const app = portal({ distDir: builtDir });
    const br = await app.inject({
      url: '/assets/amend-1.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(script.length / 5);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const plain = await app.inject({
      url: '/assets/amend-1.js',
      headers: { 'accept-encoding': '' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});

describe('security headers', () => {
  it('sends a strict CSP, nosniff, no referrer and frame denial on pages and API', async () => {
    const app = portal();
    for (const url of ['/', '/api/config']) {
      const res = await app.inject(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('the parts as plugins', () => {
  it('refuse to start a route without the part it reads, and name that part', async () => {
    const config = testConfig(upstream, { LOG_LEVEL: 'silent' });
    const app = Fastify();
    app.register(journalRoutes, {
      prefix: '/api/journal',
      config,
      upstreams: new ConnectionUpstreams(config, null),
    });
    await expect(app.ready()).rejects.toThrow(/dependency 'journal'.*journal-routes/);
  });

  it('open the database before the port opens, so the first request finds it open', async () => {
    const config = testConfig(upstream, { LOG_LEVEL: 'silent' });
    const app = buildPortal(config, { distDir });
    await app.ready();
    // SQLite here; PostgreSQL in the postgres project, whose PORTAL_DB becomes a DATABASE_URL.
    expect(app.database.kind).toBe(config.databaseUrl === null ? 'sqlite' : 'postgres');
    expect(await app.database.schemaVersion()).toBe(portalSchemaVersion);
    const ready = await app.inject('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    await app.close();
  });
});
