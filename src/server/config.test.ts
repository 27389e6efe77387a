import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxDemo } from '@/sandbox/index';
import { ConfigError, isLoopbackHost, loadConfig, upstreamLabel } from './config';

const remote = {
  VMS_BASE_URL: 'https://vms.example.com/api/v1',
  VMS_API_KEY: 'k',
  VMS_API_SECRET: 's',
  VMS_CLIENT_ORGS: '11, 12',
  VMS_VENDOR_ORG_ID: '21',
};

function problem(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = error instanceof Error ? error.message : String(error);
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected loadConfig to refuse the environment');
}

describe('loadConfig', () => {
  it("gives the embedded sandbox npm run sandbox's settings, SANDBOX_PROFILE as the portal's profile too", () => {
    const config = loadConfig({
      SANDBOX_PROFILE: 'vectorvms',
      SANDBOX_CLOCK_SKEW_MS: '-5000',
      SANDBOX_BLANK_MAXIMUM_BILL_RATE: 'hourly-high',
    });
    expect(config.connections[0]?.upstream).toEqual({
      kind: 'sandbox',
      processingDelayMs: 20,
      clockSkewMs: -5000,
      blankMaximumBillRate: 'hourly-high',
      profileSetting: 'vectorvms',
    });
    // The vectorvms preset numbers no candidate result rows; the sandbox's own does.
    expect(config.profile.results.candidate.rowNumber).toBeNull();
    expect(problem({ VMS_PROFILE: 'sandbox', SANDBOX_PROFILE: 'vectorvms' })).toBe(
      'VMS_PROFILE (sandbox) and SANDBOX_PROFILE (vectorvms) differ: the embedded sandbox answers in the profile the portal speaks. Keep one of them.',
    );
    // Against a remote VMS there is no embedded sandbox: its settings change nothing.
    expect(
      loadConfig({ ...remote, SANDBOX_PROFILE: 'vectorvms' }).profile.results.candidate.rowNumber,
    ).not.toBeNull();
    expect(problem({ SANDBOX_CLOCK_SKEW_MS: 'soon' })).toMatch(
      /^SANDBOX_CLOCK_SKEW_MS must be a whole number of milliseconds/,
    );
  });

  it('defaults to the embedded sandbox with its demo identity', () => {
    const sandboxProfile = expect.objectContaining({
      paths: expect.objectContaining({
        requisitionresults: 'requisitionresults?batchid={batchid}',
      }),
      accepted: { statuses: [202], batchId: '/batchid' },
      dates: {
        outbound: 'YYYY-MM-DD',
        records: 'YYYY-MM-DD',
        dateTimes: 'iso-8601',
        timeZone: 'UTC',
      },
    });
    expect(loadConfig({})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      // The shorthand: the one connection the VMS_* variables describe, here the sandbox.
      connections: [
        {
          name: 'sandbox',
          label: 'Sandbox',
          production: false,
          upstream: {
            kind: 'sandbox',
            processingDelayMs: 20,
            clockSkewMs: 0,
            blankMaximumBillRate: 'no-limit',
            profileSetting: null,
          },
          apiKey: sandboxDemo.apiKey,
          apiSecret: sandboxDemo.apiSecret,
          apiKeyEnv: null,
          apiSecretEnv: null,
          clientOrgIds: [1001, 1002],
          clientOrgNames: { '1001': 'Northwind Health', '1002': 'Contoso Manufacturing' },
          vendorOrgId: 9001,
          profile: sandboxProfile,
          dateFormat: 'YYYY-MM-DD',
          maxBatch: 500,
          timeoutMs: 30_000,
          lateAnswerMs: 600_000,
        },
      ],
      defaultConnection: 'sandbox',
      vmsBaseUrl: null,
      apiKey: sandboxDemo.apiKey,
      apiSecret: sandboxDemo.apiSecret,
      clientOrgIds: [1001, 1002],
      // The sandbox's own names for its orgs.
      clientOrgNames: { '1001': 'Northwind Health', '1002': 'Contoso Manufacturing' },
      vendorOrgId: 9001,
      // The sandbox's own dialect, as the portal's browser code reads it.
      profile: sandboxProfile,
      dateFormat: 'YYYY-MM-DD',
      maxBatch: 500,
      timeoutMs: 30_000,
      lateAnswerMs: 600_000,
      bodyLimitBytes: 5 * 1024 * 1024,
      requestTimeoutMs: 60_000,
      connectionTimeoutMs: 120_000,
      drainTimeoutMs: 20_000,
      portalDb: './data/portal.db',
      databaseUrl: null,
      journal: {
        enabled: true,
        retentionMs: 30 * 24 * 60 * 60 * 1000,
        maxBytes: 500 * 1024 * 1024,
        bodyLimitBytes: 256 * 1024,
      },
      audit: { retentionMs: 365 * 24 * 60 * 60 * 1000 },
      retention: {
        resultsMs: 180 * 24 * 60 * 60 * 1000,
        draftsMs: 90 * 24 * 60 * 60 * 1000,
        suiteRunsMs: 90 * 24 * 60 * 60 * 1000,
      },
      // WATCH on, WATCH_GIVE_UP_HOURS 72 and WATCH_CONCURRENCY 4 unless set (decision 050).
      watch: { enabled: true, giveUpMs: 72 * 60 * 60 * 1000, concurrency: 4 },
      rateLimitPerMinute: 600,
      auth: {
        required: false,
        trustProxy: false,
        idleMs: 30 * 60_000,
        maxMs: 12 * 60 * 60_000,
        publicOrigin: null,
        sso: null,
      },
      metrics: { port: null, token: null },
      notifications: { mail: null, webhookAllowHosts: new Set() },
      logLevel: 'info',
      sandboxPort: 8788,
      sandboxDb: './data/sandbox.db',
      sandboxProcessingDelayMs: 20,
    });
  });

  it('treats empty values as unset, as a .env file means them', () => {
    expect(loadConfig({ PORT: '', VMS_BASE_URL: '  ' })).toMatchObject({
      port: 8787,
      vmsBaseUrl: null,
    });
  });

  it('reads a remote VMS and normalises its base to end in /', () => {
    const config = loadConfig({ ...remote, PORT: '0', VMS_DATE_FORMAT: 'MM/DD/YYYY' });
    expect(config).toMatchObject({
      port: 0,
      vmsBaseUrl: 'https://vms.example.com/api/v1/',
      apiKey: 'k',
      apiSecret: 's',
      clientOrgIds: [11, 12],
      vendorOrgId: 21,
      dateFormat: 'MM/DD/YYYY',
    });
    expect(upstreamLabel(config)).toEqual({ kind: 'remote', label: 'vms.example.com' });
    expect(upstreamLabel(loadConfig({}))).toEqual({ kind: 'sandbox', label: 'sandbox' });
  });

  it('lets VMS_PRODUCTION=off say the one remote VMS is a test VMS; the sandbox never is', () => {
    expect(loadConfig({ ...remote, VMS_PRODUCTION: 'off' }).connections[0]?.production).toBe(false);
    expect(loadConfig({ ...remote, VMS_PRODUCTION: 'on' }).connections[0]?.production).toBe(true);
    expect(loadConfig({ VMS_PRODUCTION: 'on' }).connections[0]?.production).toBe(false);
    expect(() => loadConfig({ ...remote, VMS_PRODUCTION: 'no' })).toThrow(/VMS_PRODUCTION/);
  });

  it('makes the VMS_* variables one connection named "default", as the top-level fields say', () => {
    const config = loadConfig({
      ...remote,
      VMS_CLIENT_ORGS: '11:Northwind Health,12',
      VMS_MAX_BATCH: '50',
      VMS_TIMEOUT_MS: '20000',
      VMS_LATE_ANSWER_MS: '700000',
    });
    expect(config.defaultConnection).toBe('default');
    expect(config.connections).toEqual([
      {
        name: 'default',
        label: 'vms.example.com',
        // Nothing says a lone remote VMS is not production, so it is treated as one.
        production: true,
        upstream: { kind: 'remote', baseUrl: 'https://vms.example.com/api/v1/' },
        apiKey: 'k',
        apiSecret: 's',
        apiKeyEnv: 'VMS_API_KEY',
        apiSecretEnv: 'VMS_API_SECRET',
        clientOrgIds: [11, 12],
        clientOrgNames: { '11': 'Northwind Health' },
        vendorOrgId: 21,
        profile: config.profile,
        dateFormat: 'YYYY-MM-DD',
        maxBatch: 50,
        timeoutMs: 20_000,
        lateAnswerMs: 700_000,
      },
    ]);
    expect(config).toMatchObject({
      vmsBaseUrl: 'https://vms.example.com/api/v1/',
      maxBatch: 50,
      timeoutMs: 20_000,
      lateAnswerMs: 700_000,
      bodyLimitBytes: 5 * 1024 * 1024,
    });
  });

  it.each([
    ['VMS_API_KEY', { ...remote, VMS_API_KEY: undefined }],
    ['VMS_API_SECRET', { ...remote, VMS_API_SECRET: '' }],
    ['VMS_CLIENT_ORGS', { ...remote, VMS_CLIENT_ORGS: undefined }],
    ['VMS_VENDOR_ORG_ID', { ...remote, VMS_VENDOR_ORG_ID: undefined }],
  ])('requires %s against a remote VMS', (name, env) => {
    const message = problem(env);
    expect(message).toContain(name);
    expect(message).toContain('required when VMS_BASE_URL is set');
  });

  it.each([
    ['PORT', { PORT: '80a' }],
    ['PORT', { PORT: '70000' }],
    ['VMS_BASE_URL', { VMS_BASE_URL: 'vms.example.com' }],
    ['VMS_BASE_URL', { VMS_BASE_URL: 'ftp://vms.example.com/' }],
    ['VMS_CLIENT_ORGS', { VMS_CLIENT_ORGS: '1001,,1002' }],
    ['VMS_CLIENT_ORGS', { VMS_CLIENT_ORGS: '1001,abc' }],
    ['VMS_CLIENT_ORGS', { VMS_CLIENT_ORGS: '1001:,1002' }],
    ['VMS_CLIENT_ORG_IDS', { VMS_CLIENT_ORG_IDS: '1001,abc' }],
    ['VMS_VENDOR_ORG_ID', { VMS_VENDOR_ORG_ID: '-1' }],
    ['VMS_DATE_FORMAT', { VMS_DATE_FORMAT: 'DD.MM.YYY' }],
    ['VMS_MAX_BATCH', { VMS_MAX_BATCH: '0' }],
    ['VMS_TIMEOUT_MS', { VMS_TIMEOUT_MS: '1.5' }],
    ['VMS_BODY_LIMIT_BYTES', { VMS_BODY_LIMIT_BYTES: '5MB' }],
    ['PORTAL_RATE_LIMIT_PER_MINUTE', { PORTAL_RATE_LIMIT_PER_MINUTE: 'lots' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['SANDBOX_PORT', { SANDBOX_PORT: 'x' }],
  ])('names %s when it is malformed', (name, env) => {
    expect(problem(env)).toMatch(new RegExp(`^${name} must be`));
  });

  it('refuses a VMS_BASE_URL with a user name or password, without printing the password', () => {
    const message = problem({
      ...remote,
      VMS_BASE_URL: 'https://ops:hunter2-secret@vms.example.com/api/',
    });
    expect(message).toContain('VMS_BASE_URL must not contain a user name or password');
    expect(message).toContain('"https://vms.example.com/api/"');
    expect(message).not.toContain('hunter2-secret');
    expect(message).not.toContain('ops:');
    expect(problem({ ...remote, VMS_BASE_URL: 'https://token@vms.example.com/' })).not.toContain(
      'token',
    );
  });

  it('takes a PostgreSQL DATABASE_URL, and refuses anything else without repeating it', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://portal:pw@db.internal:5432/portal' }),
    ).toMatchObject({
      databaseUrl: 'postgres://portal:pw@db.internal:5432/portal',
      portalDb: './data/portal.db',
    });
    expect(loadConfig({ DATABASE_URL: 'postgresql://db.internal/portal' }).databaseUrl).toBe(
      'postgresql://db.internal/portal',
    );
    for (const value of ['mysql://root:hunter2@db/portal', 'db.internal:5432', 'postgres://']) {
      const message = problem({ DATABASE_URL: value });
      expect(message).toMatch(/^DATABASE_URL must be a PostgreSQL address/);
      expect(message).not.toContain('hunter2');
    }
  });

  it('keeps the late-answer wait and the connection timeout longer than VMS_TIMEOUT_MS', () => {
    expect(problem({ VMS_TIMEOUT_MS: '5000', VMS_LATE_ANSWER_MS: '4000' })).toContain(
      'VMS_LATE_ANSWER_MS (4000) must not be shorter than VMS_TIMEOUT_MS (5000)',
    );
    expect(problem({ VMS_TIMEOUT_MS: '5000', PORTAL_CONNECTION_TIMEOUT_MS: '5000' })).toContain(
      'PORTAL_CONNECTION_TIMEOUT_MS (5000) must be longer than VMS_TIMEOUT_MS (5000)',
    );
    expect(
      loadConfig({
        VMS_TIMEOUT_MS: '200',
        VMS_LATE_ANSWER_MS: '900',
        PORTAL_REQUEST_TIMEOUT_MS: '1500',
        PORTAL_CONNECTION_TIMEOUT_MS: '2000',
        PORTAL_DB: ':memory:',
      }),
    ).toMatchObject({
      timeoutMs: 200,
      lateAnswerMs: 900,
      requestTimeoutMs: 1500,
      connectionTimeoutMs: 2000,
      portalDb: ':memory:',
    });
  });

  it('reads the drain timeout, 0 (mark every call still waiting at once) included', () => {
    expect(loadConfig({ PORTAL_DRAIN_TIMEOUT_MS: '0' }).drainTimeoutMs).toBe(0);
    expect(loadConfig({ PORTAL_DRAIN_TIMEOUT_MS: '45000' }).drainTimeoutMs).toBe(45_000);
    expect(problem({ PORTAL_DRAIN_TIMEOUT_MS: 'soon' })).toContain('PORTAL_DRAIN_TIMEOUT_MS');
    expect(problem({ PORTAL_DRAIN_TIMEOUT_MS: '-1' })).toContain('PORTAL_DRAIN_TIMEOUT_MS');
  });

  it('reads the call journal’s settings', () => {
    expect(
      loadConfig({
        JOURNAL: 'off',
        JOURNAL_RETENTION_DAYS: '7',
        JOURNAL_MAX_MB: '64',
        JOURNAL_BODY_LIMIT_KB: '16',
      }).journal,
    ).toEqual({
      enabled: false,
      retentionMs: 7 * 24 * 60 * 60 * 1000,
      maxBytes: 64 * 1024 * 1024,
      bodyLimitBytes: 16 * 1024,
    });
    expect(problem({ JOURNAL: 'maybe' })).toBe('JOURNAL must be one of on, off; got "maybe".');
    expect(problem({ JOURNAL_MAX_MB: '0' })).toContain(
      'JOURNAL_MAX_MB must be a whole number from 1',
    );
    expect(problem({ JOURNAL_RETENTION_DAYS: 'forever' })).toContain('JOURNAL_RETENTION_DAYS');
  });

  it('reads the batch watch’s give-up and concurrency', () => {
    expect(
      loadConfig({ WATCH: 'off', WATCH_GIVE_UP_HOURS: '24', WATCH_CONCURRENCY: '2' }).watch,
    ).toEqual({
      enabled: false,
      giveUpMs: 24 * 60 * 60 * 1000,
      concurrency: 2,
    });
    expect(problem({ WATCH_GIVE_UP_HOURS: '0' })).toContain(
      'WATCH_GIVE_UP_HOURS must be a whole number from 1',
    );
    expect(problem({ WATCH: 'sometimes' })).toBe('WATCH must be one of on, off; got "sometimes".');
    expect(problem({ WATCH_CONCURRENCY: 'many' })).toContain('WATCH_CONCURRENCY');
    expect(problem({ WATCH_CONCURRENCY: '65' })).toContain('WATCH_CONCURRENCY');
  });

  it('reads the audit trail’s retention', () => {
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '90' }).audit).toEqual({
      retentionMs: 90 * 24 * 60 * 60 * 1000,
    });
    expect(problem({ AUDIT_RETENTION_DAYS: '0' })).toContain('AUDIT_RETENTION_DAYS');
    expect(problem({ AUDIT_RETENTION_DAYS: '3651' })).toContain('AUDIT_RETENTION_DAYS');
  });

  it('reads each store’s retention, 0 keeping for ever', () => {
    const days = (n: number) => n * 24 * 60 * 60 * 1000;
    expect(loadConfig({}).retention).toEqual({
      resultsMs: days(180),
      draftsMs: days(90),
      suiteRunsMs: days(90),
    });
    expect(
      loadConfig({
        RESULTS_RETENTION_DAYS: '30',
        DRAFT_RETENTION_DAYS: '0',
        SUITE_RUN_RETENTION_DAYS: '7',
      }).retention,
    ).toEqual({ resultsMs: days(30), draftsMs: null, suiteRunsMs: days(7) });
    expect(problem({ RESULTS_RETENTION_DAYS: 'half a year' })).toBe(
      'RESULTS_RETENTION_DAYS must be a whole number from 0 to 3650 (for example 180); got "half a year".',
    );
    expect(problem({ DRAFT_RETENTION_DAYS: '-1' })).toContain('DRAFT_RETENTION_DAYS');
    expect(problem({ SUITE_RUN_RETENTION_DAYS: '3651' })).toContain('SUITE_RUN_RETENTION_DAYS');
  });

  it('reads VMS_PROFILE as a preset or a profile file, dates included', () => {
    const documented = loadConfig({
      ...remote,
      VMS_PROFILE: 'vectorvms',
      VMS_DATE_FORMAT: 'DD/MM/YYYY',
    });
    expect(documented.profile.results.candidate.rowNumber).toBeNull();
    expect(documented.dateFormat).toBe('DD/MM/YYYY');
    const other = loadConfig({ ...remote, VMS_PROFILE: 'docs/examples/profile-other-vms.json' });
    expect(other.profile.paths.requisitionresults).toBe(
      'api/v2/batches/{batchid}/requisition-results',
    );
    expect(other.profile.results.requisition.statuses).toEqual({
      QUEUED: 'Pending',
      DONE: 'Success',
      FAILED: 'Error',
    });
    // The browser's date inputs convert to the profile's outbound format.
    expect(other.dateFormat).toBe('MM/DD/YYYY');
  });

  it('refuses a profile it cannot use, naming the key and what it takes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-profile-'));
    const file = join(dir, 'profile.json');
    try {
      expect(problem({ VMS_PROFILE: 'production' })).toBe(
        'VMS_PROFILE must be a profile preset (sandbox, vectorvms) or the path of a profile JSON file; "production" is neither: it cannot be read.',
      );
      writeFileSync(
        file,
        '{"paths": {"requisitionresults": "results"}, "list": {"fieldNames": "camel"}, "extra": 1}',
      );
      const message = problem({ VMS_PROFILE: file });
      expect(message).toContain(`VMS_PROFILE (${file}) is not a usable profile:`);
      expect(message).toContain(
        'paths.requisitionresults must say where the batch id goes with {batchid}',
      );
      expect(message).toContain('list.fieldNames must be "PascalCase", "camelCase" or "payload"');
      expect(message).toContain('extra');
      writeFileSync(file, '{"paths": ');
      expect(problem({ VMS_PROFILE: file })).toContain('it is not JSON');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names every malformed variable in one line', () => {
    const message = problem({ PORT: 'x', VMS_MAX_BATCH: 'y' });
    expect(message).toContain('PORT');
    expect(message).toContain('VMS_MAX_BATCH');
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['app.localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['192.168.1.10', false],
    ['evil.example', false],
    ['127.0.0.1.evil.example', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  describe('client org names', () => {
    it('reads "id:name" pairs, plain ids too, in order and once each', () => {
      const config = loadConfig({
        ...remote,
        VMS_CLIENT_ORGS: '11:Northwind Health, 12, 13: Fabrikam: Europe ,11:Again',
      });
      expect(config.clientOrgIds).toEqual([11, 12, 13]);
      // Against a remote VMS only the names given are known.
      expect(config.clientOrgNames).toEqual({ '11': 'Northwind Health', '13': 'Fabrikam: Europe' });
    });

    it('keeps a name given for a sandbox org, and the sandbox’s name for the others', () => {
      expect(loadConfig({ VMS_CLIENT_ORGS: '1001:Northwind (demo),1002' }).clientOrgNames).toEqual({
        '1001': 'Northwind (demo)',
        '1002': 'Contoso Manufacturing',
      });
    });

    it('still reads the earlier name VMS_CLIENT_ORG_IDS, but not both at once', () => {
      expect(
        loadConfig({ ...remote, VMS_CLIENT_ORGS: undefined, VMS_CLIENT_ORG_IDS: '7:Seven' }),
      ).toMatchObject({ clientOrgIds: [7], clientOrgNames: { '7': 'Seven' } });
      expect(problem({ VMS_CLIENT_ORGS: '1001', VMS_CLIENT_ORG_IDS: '1001' })).toMatch(
        /^VMS_CLIENT_ORGS and VMS_CLIENT_ORG_IDS are both set/,
      );
    });
  });

  describe('sign-in', () => {
    it('is off on loopback unless AUTH=on, and required beyond loopback or behind a proxy', () => {
      expect(loadConfig({}).auth.required).toBe(false);
      expect(loadConfig({ HOST: 'localhost' }).auth.required).toBe(false);
      expect(loadConfig({ AUTH: 'on' }).auth.required).toBe(true);
      expect(loadConfig({ HOST: '0.0.0.0' }).auth.required).toBe(true);
      expect(loadConfig({ HOST: '10.1.2.3', AUTH: 'on' }).auth.required).toBe(true);
      expect(loadConfig({ TRUST_PROXY: 'true' }).auth).toMatchObject({
        required: true,
        trustProxy: true,
      });
    });

    it('refuses AUTH=off where others can reach the portal', () => {
      expect(problem({ HOST: '0.0.0.0', AUTH: 'off' })).toMatch(
        /^AUTH=off is not allowed here: HOST=0\.0\.0\.0/,
      );
      expect(problem({ TRUST_PROXY: '127.0.0.1', AUTH: 'off' })).toMatch(/TRUST_PROXY is set/);
      expect(loadConfig({ AUTH: 'off' }).auth.required).toBe(false);
    });

    it('reads TRUST_PROXY as true, false or the proxies’ addresses', () => {
      expect(loadConfig({ TRUST_PROXY: 'false' }).auth.trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).auth.trustProxy).toBe(
        '127.0.0.1,10.0.0.0/8,::1',
      );
      expect(problem({ TRUST_PROXY: 'yes' })).toMatch(/^TRUST_PROXY must be true, false/);
      expect(problem({ TRUST_PROXY: '10.0.0.0/33' })).toMatch(/^TRUST_PROXY must be/);
    });

    it('reads the session limits and the public address', () => {
      expect(
        loadConfig({
          SESSION_IDLE_MINUTES: '15',
          SESSION_MAX_HOURS: '8',
          PORTAL_PUBLIC_URL: 'https://Portal.Example.com/',
        }).auth,
      ).toMatchObject({
        idleMs: 15 * 60_000,
        maxMs: 8 * 60 * 60_000,
        publicOrigin: 'https://portal.example.com',
      });
      expect(problem({ SESSION_IDLE_MINUTES: '120', SESSION_MAX_HOURS: '1' })).toMatch(
        /^SESSION_IDLE_MINUTES \(120\) must not be longer than SESSION_MAX_HOURS/,
      );
      expect(problem({ PORTAL_PUBLIC_URL: 'https://portal.example.com/app' })).toMatch(
        /^PORTAL_PUBLIC_URL must be/,
      );
      expect(problem({ SESSION_IDLE_MINUTES: '0' })).toMatch(/^SESSION_IDLE_MINUTES must be/);
    });

    it('reads single sign-on as all three OIDC settings, with sign-in on', () => {
      const oidc = {
        AUTH: 'on',
        OIDC_ISSUER: 'https://login.example.com/realms/staff',
        OIDC_CLIENT_ID: 'portal',
        OIDC_CLIENT_SECRET: 's3cret',
      };
      expect(loadConfig(oidc).auth.sso).toEqual({
        issuer: 'https://login.example.com/realms/staff',
        clientId: 'portal',
        clientSecret: 's3cret',
        label: 'single sign-on',
      });
      expect(problem({ ...oidc, OIDC_CLIENT_SECRET: undefined })).toMatch(
        /^Single sign-on needs .*OIDC_CLIENT_SECRET is not set/,
      );
      expect(problem({ ...oidc, AUTH: undefined })).toMatch(/sign-in is off/);
      expect(problem({ ...oidc, OIDC_ISSUER: 'http://login.example.com' })).toMatch(
        /^OIDC_ISSUER must be the https address/,
      );
      expect(loadConfig({ ...oidc, OIDC_ISSUER: 'http://127.0.0.1:9999' }).auth.sso?.issuer).toBe(
        'http://127.0.0.1:9999',
      );
    });
  });

  describe('metrics', () => {
    const token = 'a'.repeat(32);

    it('reads the metrics port and token, off when unset', () => {
      expect(loadConfig({}).metrics).toEqual({ port: null, token: null });
      expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: token }).metrics).toEqual({
        port: 9464,
        token,
      });
      expect(loadConfig({ METRICS_PORT: '0' }).metrics.port).toBe(0);
    });

    it("refuses a short token, a bad port and the portal's own port, never echoing the token", () => {
      const short = problem({ METRICS_TOKEN: 'guessable' });
      expect(short).toMatch(/^METRICS_TOKEN must be at least 16/);
      expect(short).not.toContain('guessable');
      expect(problem({ METRICS_TOKEN: `${token} ${token}` })).toMatch(/^METRICS_TOKEN must/);
      expect(problem({ METRICS_PORT: 'x' })).toMatch(/^METRICS_PORT must be a whole number/);
      expect(problem({ PORT: '9000', METRICS_PORT: '9000' })).toMatch(
        /^METRICS_PORT \(9000\) must differ from PORT/,
      );
    });
  });
  describe('notifications', () => {
    it('sends no e-mail and allows no internal webhook host when unset', () => {
      const { notifications } = loadConfig({});
      expect(notifications.mail).toBeNull();
      expect([...notifications.webhookAllowHosts]).toEqual([]);
    });

    it('reads the SMTP server, its password apart, the sender and the allowed hosts', () => {
      const { notifications } = loadConfig({
        SMTP_URL: 'smtps://portal@mail.example.com',
        SMTP_PASSWORD: 'pw-from-a-secret-store',
        MAIL_FROM: 'VMS portal <portal@example.com>',
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1, Chat.Internal.example',
      });
      expect(notifications.mail).toMatchObject({
        host: 'mail.example.com',
        port: 465,
        secure: true,
        auth: { user: 'portal', pass: 'pw-from-a-secret-store' },
      });
      expect([...notifications.webhookAllowHosts]).toEqual(['127.0.0.1', 'chat.internal.example']);
    });

    it('refuses an SMTP URL without a host and an allowed host with a scheme, naming the setting', () => {
      expect(problem({ SMTP_URL: 'smtps://', MAIL_FROM: 'portal@example.com' })).toMatch(
        /^SMTP_URL \(smtps:\/\/\) has no host/,
      );
      const unreadable = problem({
        SMTP_URL: 'smtps://portal:hunter2@',
        MAIL_FROM: 'portal@example.com',
      });
      expect(unreadable).toMatch(/^SMTP_URL is not a URL/);
      expect(unreadable).not.toContain('hunter2');
      expect(problem({ WEBHOOK_ALLOW_HOSTS: 'https://chat.example' })).toMatch(
        /WEBHOOK_ALLOW_HOSTS: "https:\/\/chat.example" is not a host name/,
      );
      expect(problem({ SMTP_URL: 'smtp://mail.example.com' })).toMatch(/^MAIL_FROM is not set/);
    });
  });
});
