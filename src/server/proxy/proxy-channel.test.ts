import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@/domain/api-error';
import { loadConfig, type PortalConfig } from '@/server/config';
import { startCaptureUpstream, type CaptureUpstream } from '@/test-support/capture-upstream';
import { ConnectionUpstreams } from './connection-upstreams';
import {
  channelFor,
  closeChannels,
  namedConnection,
  openChannels,
  type Channel,
} from './proxy-channel';

/*
 * The proxy's first step: which connection a call is for, refused before anything is read when
 * the name is unknown, not granted to the user, or a sandbox this process did not start.
 */

let dir: string;
let upstream: CaptureUpstream;
let config: PortalConfig;
let upstreams: ConnectionUpstreams;
let channels: Map<string, Channel>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-channel-'));
  upstream = await startCaptureUpstream();
  writeFileSync(
    join(dir, 'connections.json'),
    JSON.stringify({
      connections: [
        { name: 'sandbox', label: 'Sandbox', sandbox: true, processingDelayMs: 0 },
        {
          name: 'live',
          label: 'Acme live',
          baseUrl: `${upstream.url}vms/api`,
          apiKeyEnv: 'LIVE_KEY',
          apiSecretEnv: 'LIVE_SECRET',
          clientOrgs: [{ id: 1001, name: 'Northwind Health' }],
          vendorOrgId: 9001,
          production: false,
        },
      ],
      default: 'live',
    }),
  );
  config = loadConfig({
    PORTAL_DB: ':memory:',
    VMS_CONNECTIONS: join(dir, 'connections.json'),
    LIVE_KEY: 'live-key-1',
    LIVE_SECRET: 'live-secret-1',
    LOG_LEVEL: 'silent',
  });
  // No sandbox runs in this process: the sandbox connection has nowhere to go.
  upstreams = new ConnectionUpstreams(config, null);
  channels = openChannels(config, upstreams);
});

afterAll(async () => {
  if (channels) await closeChannels(channels);
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('channelFor', () => {
  it('is the default connection without a header, and the named one with it', () => {
    const byDefault = channelFor(channels, upstreams, config, undefined, undefined);
    expect(byDefault.connection.name).toBe('live');
    expect(byDefault.basePath).toBe('/vms/api/');
    expect(byDefault.host).toBe(new URL(upstream.url).host);
    expect(channelFor(channels, upstreams, config, ' LIVE ', undefined)).toBe(byDefault);
  });

  it('refuses a name the portal does not have, saying which it has', () => {
    const error = refusal(() => channelFor(channels, upstreams, config, 'staging', undefined));
    expect(error.code).toBe('unknown_connection');
    expect(error.message).toContain('sandbox, live');
  });

  it('refuses a connection the user was not granted, naming the ones they may use', () => {
    const error = refusal(() =>
      channelFor(channels, upstreams, config, 'live', { connections: ['sandbox'] }),
    );
    expect(error.code).toBe('connection_not_permitted');
    expect(error.statusCode).toBe(403);
    expect(error.message).toContain('It may use sandbox');
    expect(
      channelFor(channels, upstreams, config, 'live', { connections: ['live'] }).connection.name,
    ).toBe('live');
  });

  it('refuses the sandbox connection when this process runs no sandbox', () => {
    expect(channels.has('sandbox')).toBe(false);
    const error = refusal(() => channelFor(channels, upstreams, config, 'sandbox', undefined));
    expect(error.code).toBe('upstream_unreachable');
  });
});

describe('namedConnection', () => {
  it('names the chosen channel, else what the header named, without refusing', () => {
    const live = channels.get('live') ?? null;
    expect(namedConnection(live, upstreams, 'sandbox')).toEqual({
      name: 'live',
      baseUrl: `${upstream.url}vms/api/`,
    });
    expect(namedConnection(null, upstreams, 'sandbox')).toEqual({ name: 'sandbox', baseUrl: null });
    expect(namedConnection(null, upstreams, 'nope')).toEqual({ name: 'nope', baseUrl: null });
    expect(namedConnection(null, upstreams, undefined).name).toBe('live');
  });
});
