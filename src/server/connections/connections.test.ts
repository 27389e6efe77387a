import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/server/config';

// The connections file as an operator writes it: real files in a temporary directory, read
// through loadConfig as `npm start` reads them. Expected values are written out by hand.

let dir: string;
let file: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'portal-connections-'));
  file = join(dir, 'connections.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const uatKey = 'uat-key-4f9a2c71d0';
const uatSecret = 'uat-secret-b83e56a1f7c2';
const prodKey = 'prod-key-7d1e09bb42';
const prodSecret = 'prod-secret-0c5f9e3a6d18';
const secretsEnv = {
  UAT_VMS_API_KEY: uatKey,
  UAT_VMS_API_SECRET: uatSecret,
  PROD_VMS_API_KEY: prodKey,
  PROD_VMS_API_SECRET: prodSecret,
};

const uat = {
  name: 'uat',
  label: 'Acme UAT',
  baseUrl: 'https://uat.vms.example.com/api',
  apiKeyEnv: 'UAT_VMS_API_KEY',
  apiSecretEnv: 'UAT_VMS_API_SECRET',
  clientOrgs: [{ id: 1001, name: 'Northwind Health' }, { id: 1002 }],
  vendorOrgId: 9001,
  profile: 'vectorvms',
  limits: { maxBatch: 200, timeoutMs: 45000, lateAnswerMs: 900000 },
  production: false,
};

const production = {
  name: 'production',
  label: 'Acme',
  baseUrl: 'https://vms.example.com/api/',
  apiKeyEnv: 'PROD_VMS_API_KEY',
  apiSecretEnv: 'PROD_VMS_API_SECRET',
  clientOrgs: [{ id: 1001, name: 'Northwind Health' }],
  vendorOrgId: 9001,
  profile: 'profiles/acme.json',
  production: true,
};

function writeConnections(content: unknown): string {
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** The file with `changes` laid over connection `index` of the three good ones. */
function withConnection(index: number, changes: Record<string, unknown>) {
  const connections: Record<string, unknown>[] = [
    { name: 'sandbox', sandbox: true },
    { ...uat },
    { ...production },
  ];
  connections[index] = { ...connections[index], ...changes };
  return { connections, default: 'sandbox' };
}

function writeProfileFile() {
  mkdirSync(join(dir, 'profiles'), { recursive: true });
  writeFileSync(
    join(dir, 'profiles', 'acme.json'),
    JSON.stringify({
      preset: 'sandbox',
      accepted: { statuses: [200], batchId: '/data/batch/id' },
      dates: { outbound: 'MM/DD/YYYY', records: 'MM/DD/YYYY', dateTimes: 'unix-seconds' },
    }),
  );
}

function problem(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const configError = error as ConfigError;
    expect(configError.message).not.toContain('\n');
    return configError;
  }
  throw new Error('expected loadConfig to refuse the connections file');
}

const messageOf = (content: unknown, env: NodeJS.ProcessEnv = secretsEnv) => {
  writeProfileFile();
  return problem({ ...env, VMS_CONNECTIONS: writeConnections(content) }).message;
};

describe('VMS_CONNECTIONS', () => {
  it("reads a drafted profile's keys and ignores its $evidence, inline and in a file", () => {
    const evidence = {
      'errors.message': 'proved: GET … answered 404 with the message at "/fault/detail"',
    };
    mkdirSync(join(dir, 'profiles'), { recursive: true });
    writeFileSync(
      join(dir, 'profiles', 'drafted.json'),
      JSON.stringify({
        preset: 'sandbox',
        errors: { message: '/fault/detail' },
        $evidence: evidence,
      }),
    );
    const config = loadConfig({
      ...secretsEnv,
      VMS_CONNECTIONS: writeConnections({
        connections: [
          {
            ...uat,
            profile: {
              preset: 'sandbox',
              errors: { message: '/fault/detail' },
              $evidence: evidence,
            },
          },
          { ...production, profile: 'profiles/drafted.json' },
        ],
        default: 'uat',
      }),
    });
    for (const connection of config.connections) {
      expect(connection.profile.errors.message).toBe('/fault/detail');
      expect(connection.profile).not.toHaveProperty('$evidence');
    }
  });

  it('reads three connections: a preset, an inline profile and a file beside the connections file', () => {
    writeProfileFile();
    writeConnections({
      $schema: './docs/connections.schema.json',
      connections: [
        {
          name: 'sandbox',
          label: 'Sandbox',
          sandbox: true,
          processingDelayMs: 5,
          profile: { preset: 'vectorvms', errors: { message: '/detail' } },
        },
        uat,
        production,
      ],
      default: 'uat',
    });
    const config = loadConfig({ ...secretsEnv, VMS_CONNECTIONS: file });
    expect(config.connections.map((connection) => connection.name)).toEqual([
      'sandbox',
      'uat',
      'production',
    ]);
    const [sandbox, uatConnection, prod] = config.connections;
    expect(sandbox).toMatchObject({
      name: 'sandbox',
      label: 'Sandbox',
      production: false,
      upstream: { kind: 'sandbox', processingDelayMs: 5 },
      apiKeyEnv: null,
      apiSecretEnv: null,
      clientOrgIds: [1001, 1002],
      clientOrgNames: { '1001': 'Northwind Health', '1002': 'Contoso Manufacturing' },
      vendorOrgId: 9001,
      dateFormat: 'YYYY-MM-DD',
      maxBatch: 500,
      timeoutMs: 30_000,
      lateAnswerMs: 600_000,
    });
    // Inline: vectorvms (no candidate row numbers) with its error message moved.
    expect(sandbox?.profile.errors.message).toBe('/detail');
    expect(sandbox?.profile.results.candidate.rowNumber).toBeNull();
    expect(uatConnection).toEqual({
      name: 'uat',
      label: 'Acme UAT',
      production: false,
      upstream: { kind: 'remote', baseUrl: 'https://uat.vms.example.com/api/' },
      apiKey: uatKey,
      apiSecret: uatSecret,
      apiKeyEnv: 'UAT_VMS_API_KEY',
      apiSecretEnv: 'UAT_VMS_API_SECRET',
      clientOrgIds: [1001, 1002],
      clientOrgNames: { '1001': 'Northwind Health' },
      vendorOrgId: 9001,
      profile: expect.objectContaining({
        results: expect.objectContaining({
          candidate: expect.objectContaining({ rowNumber: null }),
        }),
      }),
      dateFormat: 'YYYY-MM-DD',
      maxBatch: 200,
      timeoutMs: 45_000,
      lateAnswerMs: 900_000,
    });
    // The file's path is relative to the connections file, not to the working directory.
    expect(prod).toMatchObject({
      name: 'production',
      label: 'Acme',
      production: true,
      upstream: { kind: 'remote', baseUrl: 'https://vms.example.com/api/' },
      apiKey: prodKey,
      apiSecret: prodSecret,
      dateFormat: 'MM/DD/YYYY',
      maxBatch: 500,
      timeoutMs: 30_000,
      lateAnswerMs: 600_000,
    });
    expect(prod?.profile.accepted).toEqual({ statuses: [200], batchId: '/data/batch/id' });
    expect(prod?.profile.dates.dateTimes).toBe('unix-seconds');

    // The top-level fields describe the default connection.
    expect(config.defaultConnection).toBe('uat');
    expect(config).toMatchObject({
      vmsBaseUrl: 'https://uat.vms.example.com/api/',
      apiKey: uatKey,
      apiSecret: uatSecret,
      clientOrgIds: [1001, 1002],
      clientOrgNames: { '1001': 'Northwind Health' },
      vendorOrgId: 9001,
      maxBatch: 200,
      timeoutMs: 45_000,
      lateAnswerMs: 900_000,
      bodyLimitBytes: 5 * 1024 * 1024,
      sandboxProcessingDelayMs: 5,
    });
    expect(config.profile).toBe(uatConnection?.profile);
  });

  it('reads docs/examples/connections.json, its profile file found beside it', () => {
    const config = loadConfig({
      ...secretsEnv,
      VMS_CONNECTIONS: 'docs/examples/connections.json',
    });
    expect(config.connections.map(({ name, production }) => ({ name, production }))).toEqual([
      { name: 'sandbox', production: false },
      { name: 'uat', production: false },
      { name: 'production', production: true },
    ]);
    expect(config.connections[1]?.dateFormat).toBe('MM/DD/YYYY');
    // docs/examples/profile-other-vms.json, named relative to the example.
    expect(config.connections[2]?.profile.paths.candidates).toBe('api/v2/candidates/submit');
    expect(config.defaultConnection).toBe('sandbox');
  });

  it('takes the only connection as the default, and a sandbox as default starts the sandbox', () => {
    writeConnections({ connections: [{ name: 'qa', sandbox: true }] });
    const config = loadConfig({ VMS_CONNECTIONS: file });
    expect(config.defaultConnection).toBe('qa');
    expect(config.connections[0]).toMatchObject({ name: 'qa', label: 'qa' });
    expect(config.vmsBaseUrl).toBeNull();
  });

  it.each<[string, unknown, string]>([
    [
      'a client org id that is not a number',
      withConnection(1, { clientOrgs: [{ id: '1001' }] }),
      'connection "uat": clientOrgs[0].id must be a whole number such as 1001.',
    ],
    [
      'a misspelt key',
      withConnection(1, { lable: 'Acme UAT' }),
      'connection "uat": unknown key "lable" (did you mean "label"?).',
    ],
    [
      'a misspelt limit',
      withConnection(1, { limits: { maxbatch: 10 } }),
      'connection "uat": limits: unknown key "maxbatch" (did you mean "maxBatch"?).',
    ],
    [
      'a key a sandbox does not take',
      withConnection(0, { baseUrl: 'https://vms.example.com/' }),
      'connection "sandbox": unknown key "baseUrl": a sandbox connection takes name, label, profile, dateFormat, limits, sandbox, processingDelayMs, clockSkewMs, blankMaximumBillRate, production.',
    ],
    [
      'a missing base URL',
      withConnection(1, { baseUrl: undefined }),
      'connection "uat": baseUrl is required (the VMS\'s http(s) address, such as "https://uat.vms.example.com/api/").',
    ],
    [
      'a base URL with a query',
      withConnection(1, { baseUrl: 'https://uat.vms.example.com/api?x=1' }),
      'connection "uat": baseUrl must be an http(s) address without a query, such as "https://uat.vms.example.com/api/".',
    ],
    [
      'production left unsaid',
      withConnection(2, { production: undefined }),
      'connection "production": production is required (true or false: whether calls reach real people).',
    ],
    [
      'a name that is not a slug',
      withConnection(1, { name: 'Acme UAT' }),
      'connection "Acme UAT": name must be a lowercase name of letters, digits and hyphens (40 at most, no hyphen at either end), such as "uat" or "acme-production".',
    ],
    [
      'a connection that is not an object',
      { connections: ['uat'] },
      'connections[0]: must be an object such as {"name": "uat", "baseUrl": "https://uat.vms.example.com/api/", …}.',
    ],
    [
      'a name used twice',
      withConnection(2, { name: 'uat', baseUrl: 'https://other.example.com/' }),
      'connection "uat": the name is used by 2 connections: give each its own.',
    ],
    [
      'a default naming no connection',
      { ...withConnection(0, {}), default: 'staging' },
      'default "staging" names no connection; the connections are sandbox, uat, production.',
    ],
    [
      'no default among several',
      { connections: withConnection(0, {}).connections },
      'default is required when there are several connections: name the one people start with, such as "sandbox".',
    ],
    [
      'a second sandbox',
      withConnection(1, {
        ...Object.fromEntries(Object.keys(uat).map((key) => [key, undefined])),
        name: 'qa',
        sandbox: true,
      }),
      'connection "qa": only one connection may be the embedded sandbox, and "sandbox" is already: remove "sandbox": true from one of them.',
    ],
    [
      'two names for the same VMS and vendor org',
      withConnection(2, { baseUrl: 'https://uat.vms.example.com/api/' }),
      'connection "production": it sends to the same VMS as connection "uat" (https://uat.vms.example.com/api/ as vendor org 9001); two names for one place would send there twice: keep one of them.',
    ],
    [
      'an unknown preset',
      withConnection(1, { profile: 'vectorvm' }),
      'connection "uat": profile must be a preset\'s name (sandbox, vectorvms), the path of a profile file ending in .json (relative to this file), or a profile object such as {"preset": "vectorvms", …}; "vectorvm" is neither a preset nor a .json file.',
    ],
    [
      'an inline profile with a mistake',
      withConnection(1, { profile: { preset: 'sandbox', list: { fieldNames: 'camel' } } }),
      'connection "uat": profile: list.fieldNames must be "PascalCase", "camelCase" or "payload".',
    ],
    [
      'a profile file that is not there',
      withConnection(2, { profile: 'profiles/missing.json' }),
      'connection "production": profile (profiles/missing.json) cannot be read (ENOENT): check the path.',
    ],
    [
      'a late-answer wait shorter than the timeout',
      withConnection(1, { limits: { timeoutMs: 5000, lateAnswerMs: 4000 } }),
      'connection "uat": limits.lateAnswerMs (4000) must not be shorter than limits.timeoutMs (5000): it is how long the portal keeps waiting for a batch\'s answer after telling the browser it is late.',
    ],
    [
      'a timeout longer than the portal keeps a connection',
      withConnection(1, { limits: { timeoutMs: 200000, lateAnswerMs: 600000 } }),
      'connection "uat": limits.timeoutMs (200000) must be shorter than PORTAL_CONNECTION_TIMEOUT_MS (120000): a browser\'s connection is silent while the portal waits for the VMS; raise PORTAL_CONNECTION_TIMEOUT_MS or lower the timeout.',
    ],
    [
      'a body limit above the portal-wide one',
      withConnection(1, { limits: { bodyLimitBytes: 10 * 1024 * 1024 } }),
      'connection "uat": limits.bodyLimitBytes (10485760) must not be more than VMS_BODY_LIMIT_BYTES (5242880), the largest body the portal reads for any connection: raise VMS_BODY_LIMIT_BYTES or lower this.',
    ],
    [
      'an unknown key at the top',
      { ...withConnection(0, {}), defualt: 'uat' },
      'unknown key "defualt" (did you mean "default"?).',
    ],
  ])('refuses %s, in one line naming the connection and the key', (_what, content, expected) => {
    const message = messageOf(content);
    expect(message).toBe(`VMS_CONNECTIONS (${file}): ${expected}`);
  });

  it('names every problem of the file at once', () => {
    const error = problem({
      ...secretsEnv,
      VMS_CONNECTIONS: writeConnections({
        connections: [
          { ...uat, clientOrgs: [{ id: 0 }], lable: 'x' },
          { ...production, vendorOrgId: 'acme' },
        ],
        default: 'uat',
      }),
    });
    expect(error.problems).toEqual([
      `VMS_CONNECTIONS (${file}): connection "uat": clientOrgs[0].id must be a whole number such as 1001.`,
      `VMS_CONNECTIONS (${file}): connection "uat": unknown key "lable" (did you mean "label"?).`,
      `VMS_CONNECTIONS (${file}): connection "production": vendorOrgId must be a whole number such as 9001.`,
    ]);
    expect(error.message).toBe(error.problems.join(' '));
  });

  it('names a referenced variable that is not set, with its connection', () => {
    const { PROD_VMS_API_SECRET: _unset, ...env } = secretsEnv;
    writeProfileFile();
    const message = problem({
      ...env,
      UAT_VMS_API_KEY: '  ',
      VMS_CONNECTIONS: writeConnections(withConnection(0, {})),
    }).message;
    expect(message).toBe(
      [
        `VMS_CONNECTIONS (${file}): connection "uat": apiKeyEnv names UAT_VMS_API_KEY, which is not set: set UAT_VMS_API_KEY to this connection's API key (in the environment or .env).`,
        `VMS_CONNECTIONS (${file}): connection "production": apiSecretEnv names PROD_VMS_API_SECRET, which is not set: set PROD_VMS_API_SECRET to this connection's API secret (in the environment or .env).`,
      ].join(' '),
    );
  });

  it('reports a file it cannot read or parse', () => {
    expect(problem({ VMS_CONNECTIONS: join(dir, 'nowhere.json') }).message).toBe(
      `VMS_CONNECTIONS (${join(dir, 'nowhere.json')}): cannot be read (ENOENT): check the path.`,
    );
    expect(
      problem({ VMS_CONNECTIONS: writeConnections('{"connections": [\n  {"name": }]}') }).message,
    ).toBe(`VMS_CONNECTIONS (${file}): is not JSON at line 2, column 12.`);
  });

  it('refuses VMS_CONNECTIONS beside a per-connection VMS_* variable, naming both and what to keep', () => {
    writeConnections({ connections: [{ name: 'sandbox', sandbox: true }] });
    const message = problem({
      VMS_CONNECTIONS: file,
      VMS_BASE_URL: 'https://vms.example.com/',
      VMS_MAX_BATCH: '100',
    }).message;
    expect(message).toBe(
      [
        'VMS_CONNECTIONS and VMS_BASE_URL are both set: with a connections file, every connection\'s settings are in the file. Keep VMS_CONNECTIONS and move VMS_BASE_URL into a connection\'s "baseUrl" (then unset VMS_BASE_URL), or unset VMS_CONNECTIONS to keep the one VMS the VMS_* variables describe.',
        'VMS_CONNECTIONS and VMS_MAX_BATCH are both set: with a connections file, every connection\'s settings are in the file. Keep VMS_CONNECTIONS and move VMS_MAX_BATCH into a connection\'s "limits.maxBatch" (then unset VMS_MAX_BATCH), or unset VMS_CONNECTIONS to keep the one VMS the VMS_* variables describe.',
      ].join(' '),
    );
    // A variable the file itself names for a key is the file's, not a second source.
    writeConnections({
      connections: [{ ...uat, apiKeyEnv: 'VMS_API_KEY', apiSecretEnv: 'VMS_API_SECRET' }],
    });
    expect(
      loadConfig({ VMS_CONNECTIONS: file, VMS_API_KEY: 'key-1', VMS_API_SECRET: 'secret-1' })
        .connections[0],
    ).toMatchObject({ apiKey: 'key-1', apiSecret: 'secret-1' });
  });
});

describe('credentials in the connections file', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'apiSecret',
      { apiSecret: 'Zq8vW2nR5tY1uI4oP7aS' },
      'Zq8vW2nR5tY1uI4oP7aS',
      'connection "uat": "apiSecret" holds a credential, and the connections file must not: move it into an environment variable (such as UAT_VMS_API_SECRET) and name that variable with "apiSecretEnv": "UAT_VMS_API_SECRET".',
    ],
    [
      'apiKey',
      { apiKey: 'AKIA9X7W5V3U1T2S4R6Q' },
      'AKIA9X7W5V3U1T2S4R6Q',
      'connection "uat": "apiKey" holds a credential, and the connections file must not: move it into an environment variable (such as UAT_VMS_API_KEY) and name that variable with "apiKeyEnv": "UAT_VMS_API_KEY".',
    ],
    [
      'password',
      { password: 'correct horse battery' },
      'correct horse battery',
      'connection "uat": "password" holds a credential, and the connections file must not: move it into an environment variable (such as UAT_VMS_API_SECRET) and name that variable with "apiSecretEnv": "UAT_VMS_API_SECRET".',
    ],
    [
      'secret',
      { secret: 's3cr3t-value-9911' },
      's3cr3t-value-9911',
      'connection "uat": "secret" holds a credential, and the connections file must not: move it into an environment variable (such as UAT_VMS_API_SECRET) and name that variable with "apiSecretEnv": "UAT_VMS_API_SECRET".',
    ],
    [
      'a credential-looking value under an unknown key',
      { signing: 'b7F3kL9mQ2xR8vT1wZ5c' },
      'b7F3kL9mQ2xR8vT1wZ5c',
      'connection "uat": the value of unknown key "signing" looks like a credential, and the connections file must not hold one: move it into an environment variable (such as UAT_VMS_API_KEY) and name that variable with "apiKeyEnv": "UAT_VMS_API_KEY".',
    ],
    [
      "a key written where its variable's name belongs",
      { apiKeyEnv: 'sk-live-7Hq2Lm9Pz4Xw' },
      'sk-live-7Hq2Lm9Pz4Xw',
      'connection "uat": apiKeyEnv must be the name of an environment variable (letters, digits and _), such as UAT_VMS_API_KEY; the API key goes in that variable, never in this file.',
    ],
  ])('refuses %s at start, without repeating it', (_what, changes, secret, expected) => {
    const message = messageOf(withConnection(1, changes));
    expect(message).toBe(`VMS_CONNECTIONS (${file}): ${expected}`);
    expect(message).not.toContain(secret);
  });

  it('does not repeat a key pasted as a variable name, nor one next to a JSON mistake', () => {
    const pasted = 'AKIAIOSFODNN7EXAMPLE9';
    const message = messageOf(withConnection(1, { apiKeyEnv: pasted }));
    expect(message).toBe(
      `VMS_CONNECTIONS (${file}): connection "uat": apiKeyEnv names a variable that is not set, and the name looks like the API key itself (not repeated here): apiKeyEnv takes the name of the variable that holds the API key, such as UAT_VMS_API_KEY.`,
    );
    expect(message).not.toContain(pasted);
    // JSON.parse's own message quotes the text around the mistake.
    const broken = '{"connections": [{"name": "uat", "apiSecret": Zq8vW2nR5tY1uI4oP7aS}]}';
    const parseMessage = messageOf(broken);
    expect(parseMessage).toMatch(/is not JSON at line 1, column \d+\.$/);
    expect(parseMessage).not.toContain('Zq8vW2nR5tY1uI4oP7aS');
  });

  it('never puts a resolved key or secret in a message', () => {
    // Every connection resolves its credentials, and then each has a different mistake.
    const error = problem({
      ...secretsEnv,
      VMS_CONNECTIONS: writeConnections({
        connections: [
          { ...uat, profile: { paths: { requisitionresults: 'results' } } },
          { ...production, profile: 'profiles/missing.json', limits: { timeoutMs: 500000 } },
        ],
        default: 'uat',
      }),
    });
    expect(error.problems.length).toBeGreaterThanOrEqual(3);
    for (const secret of [uatKey, uatSecret, prodKey, prodSecret]) {
      expect(error.message).not.toContain(secret);
      expect(error.stack ?? '').not.toContain(secret);
    }
  });
});
