import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postBatch, type BatchPost } from '@/core/batch/api/send-batch';
import type { PreSendCheck } from '@/core/batch/model/batch-kind';
import type { Submission } from '@/core/batch/model/submissions-state';
import type { TrayItem, TrayState } from '@/core/batch/model/tray-state';
import { requisitionPayload } from '@/domain';
import { userListSchema } from '@/domain/auth';
import { journalPageSchema, type JournalSummary } from '@/domain/journal';
import { loadConfig } from '@/server/config';
import { RequestFailure, setCsrfToken } from '@/shared/api/http';
import {
  startCaptureUpstream,
  startTestPortal,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { testStoreEnv } from '@/test-support/postgres-server';
import { addUser, TestBrowser } from '@/test-support/test-browser';
import {
  HeldForDecision,
  memoryTray,
  ProductionNotConfirmed,
  sendTray,
  type SendTrayDeps,
  type TrayStoreLike,
} from './send-tray';

/*
 * sendTray against the real portal server: its proxy (sign-in on, three connections, each to a
 * VMS that records what reaches it) answers every way it can, and each answer must leave the tray
 * as the send promises: items gone only once accepted and recorded, a lost answer locked under its
 * key, a refusal with everything kept, a key the server knows for other contents dropped.
 */

const password = 'correct horse battery staple';
let dir: string;
let uat: CaptureUpstream;
let live: CaptureUpstream;
let staging: CaptureUpstream;
let portal: TestPortal;
let quinn: TestBrowser;
/** How long the uat connection waits for its VMS before telling the browser it is late. */
const uatTimeoutMs = 600;

const uatConnection = { name: 'uat', label: 'Acme UAT', production: false };
const liveConnection = { name: 'live', label: 'Acme live', production: true };
const stagingConnection = { name: 'staging', label: 'Acme staging', production: false };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-send-tray-'));
  const dbPath = join(dir, 'portal.db');
  [uat, live, staging] = await Promise.all([
    startCaptureUpstream(),
    startCaptureUpstream(),
    startCaptureUpstream(),
  ]);
  const remote = (name: string, label: string, url: string, production: boolean) => ({
    name,
    label,
    baseUrl: url,
    apiKeyEnv: 'VMS_KEY',
    apiSecretEnv: 'VMS_SECRET',
    clientOrgs: [{ id: 1001 }],
    vendorOrgId: 9001,
    production,
    limits: { timeoutMs: uatTimeoutMs, lateAnswerMs: 20_000 },
  });
  writeFileSync(
    join(dir, 'connections.json'),
    JSON.stringify({
      connections: [
        remote('uat', 'Acme UAT', uat.url, false),
        remote('live', 'Acme live', live.url, true),
        remote('staging', 'Acme staging', staging.url, false),
      ],
      default: 'uat',
    }),
  );
  portal = await startTestPortal(
    loadConfig(
      testStoreEnv({
        VMS_CONNECTIONS: join(dir, 'connections.json'),
        VMS_KEY: 'test-key-5f0c2a7d91b4',
        VMS_SECRET: 'test-secret-e83b6d104f2a',
        PORTAL_DB: dbPath,
        AUTH: 'on',
        PORTAL_RATE_LIMIT_PER_MINUTE: '0',
        LOG_LEVEL: 'silent',
        // These tests count what reaches each VMS call by call: the server's own watch of an
        // accepted batch (its results calls) is tested with the watch.
        WATCH: 'off',
      }),
    ),
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  await addUser(dbPath, 'quinn@example.com', password, 'qa', [1001]);
  const admin = new TestBrowser(portal.url);
  await admin.signIn('ada@example.com', password);
  const users = userListSchema.parse((await admin.call('GET', '/api/users')).json()).users;
  const id = users.find((user) => user.email === 'quinn@example.com')?.id;
  // Quinn may use uat and live, not staging.
  const granted = await admin.call('PATCH', `/api/users/${id}`, {
    body: { connections: ['uat', 'live'] },
  });
  expect(granted.status).toBe(200);
  quinn = new TestBrowser(portal.url);
  expect((await quinn.signIn('quinn@example.com', password)).status).toBe(200);
  // The page's session token, as the app reads it from GET /api/session.
  setCsrfToken(quinn.csrfToken);
});

afterAll(async () => {
  await portal?.close();
  await Promise.all([uat?.close(), live?.close(), staging?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

let batchNumber = 0;
const accepting = (upstream: CaptureUpstream) =>
  upstream.respondWith((request) => {
    batchNumber += 1;
    const items = JSON.parse(request.body.toString('utf8')) as unknown[];
    return {
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batchid: `rb_${batchNumber}`, received: items.length }),
    };
  });

beforeEach(() => {
  for (const upstream of [uat, live, staging]) {
    upstream.requests.length = 0;
    accepting(upstream);
  }
});

/** The browser's call through the portal's proxy: the page's origin is the portal's, cookie and all. */
const throughPortal =
  (base = portal.url) =>
  (batch: BatchPost) =>
    postBatch({
      ...batch,
      path: `${base}${batch.path}`,
      headers: { ...batch.headers, cookie: quinn.cookieHeader() ?? '' },
    });

const item = (id: string, reference: string, extra: Partial<TrayItem> = {}): TrayItem => ({
  id,
  wire: { requesttype: 'I', titlerole: 'Welder', clientinternalreq: reference },
  addedAt: '2026-11-23T09:00:00.000Z',
  ...extra,
});

const trayOf = (items: TrayItem[], extra: Partial<TrayState> = {}): TrayState => ({
  items,
  sendKey: null,
  lost: null,
  ...extra,
});

const kind: SendTrayDeps['kind'] = requisitionPayload;

function sender(store: TrayStoreLike, overrides: Partial<SendTrayDeps> = {}) {
  const recorded: Array<{ submission: Submission; itemsInTray: number }> = [];
  const deps: SendTrayDeps = {
    kind,
    store,
    orgs: { clientOrgId: 1001, vendorOrgId: 9001 },
    connection: uatConnection,
    productionConfirmed: () => false,
    post: throughPortal(),
    record: (submission) => recorded.push({ submission, itemsInTray: store.get().items.length }),
    newId: randomUUID,
    now: () => new Date('2026-11-23T10:00:00.000Z'),
    waitMs: 10_000,
    ...overrides,
  };
  return { deps, recorded };
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected the send to fail');
}

async function requestFailureOf(promise: Promise<unknown>): Promise<RequestFailure> {
  const error = await failureOf(promise);
  if (!(error instanceof RequestFailure)) throw error;
  return error;
}

const bodies = (upstream: CaptureUpstream) =>
  upstream.requests.map((request) => JSON.parse(request.body.toString('utf8')) as unknown);

/** The journal's entries for one Idempotency-Key, once the portal has written them. */
async function journalOf(key: string, connection = 'uat'): Promise<JournalSummary[]> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const answer = await quinn.call(
      'GET',
      `/api/journal?connection=${connection}&key=${encodeURIComponent(key)}`,
    );
    const entries = journalPageSchema.parse(answer.json()).entries;
    if (entries.length > 0) return entries;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no journal entry for key ${key}`);
}

describe('sendTray, accepted', () => {
  it('sends the tray as one batch to the connection it names, records it, then empties the tray', async () => {
    const store = memoryTray(trayOf([item('a', 'R-1'), item('b', 'R-2')]));
    const { deps, recorded } = sender(store);
    const sent = await sendTray(deps);

    expect(uat.requests).toHaveLength(1);
    expect(live.requests).toHaveLength(0);
    expect(uat.requests[0]?.path).toBe('/requisitionimport');
    expect(bodies(uat)).toEqual([
      [
        { requesttype: 'I', titlerole: 'Welder', clientinternalreq: 'R-1' },
        { requesttype: 'I', titlerole: 'Welder', clientinternalreq: 'R-2' },
      ],
    ]);
    expect(sent.batchId).toBe(`rb_${batchNumber}`);
    expect(sent.received).toBe(2);
    expect(sent.submission).toMatchObject({
      batchId: sent.batchId,
      kind: 'requisition',
      clientOrgId: 1001,
      vendorOrgId: 9001,
      itemCount: 2,
      connection: 'uat',
      sentAt: '2026-11-23T10:00:00.000Z',
      loaded: [null, null],
      finalCounts: null,
    });
    // Recorded while the items were still in the tray: never in neither place.
    expect(recorded).toEqual([{ submission: sent.submission, itemsInTray: 2 }]);
    expect(store.get()).toMatchObject({ items: [], sendKey: null, lost: null });
  });

  it('names its key, the call it repeats and a send without local checks, as the journal shows', async () => {
    const firstKey = `first-${randomUUID()}`;
    await sendTray(sender(memoryTray(trayOf([item('a', 'R-10')], { sendKey: firstKey }))).deps);
    const [original] = await journalOf(firstKey);
    expect(original).toMatchObject({ idempotencyKey: firstKey, replayOf: null, unchecked: false });

    const key = `replay-${randomUUID()}`;
    const replay = memoryTray(
      trayOf([item('c', 'R-11')], { sendKey: key, replayOf: original?.id }),
    );
    await sendTray(sender(replay).deps, { unchecked: true });
    const [entry] = await journalOf(key);
    expect(entry).toMatchObject({
      replayOf: original?.id,
      unchecked: true,
      connection: 'uat',
      status: 202,
    });
    expect(replay.get().replayOf).toBeNull();
  });

  it('checks loaded items first: sends them as revised and returns the notes', async () => {
    const store = memoryTray(trayOf([item('a', 'R-20'), item('b', 'R-21')]));
    const check: PreSendCheck = {
      revised: new Map([['b', item('b', 'R-21-rebased')]]),
      notes: ['Requisition 40001 was changed elsewhere in fields this Amend leaves alone.'],
    };
    const { deps } = sender(store, {
      kind: { ...requisitionPayload, beforeSend: async () => check },
    });
    const sent = await sendTray(deps);
    expect(sent.notes).toEqual(check.notes);
    expect(bodies(uat)).toEqual([
      [
        { requesttype: 'I', titlerole: 'Welder', clientinternalreq: 'R-20' },
        { requesttype: 'I', titlerole: 'Welder', clientinternalreq: 'R-21-rebased' },
      ],
    ]);
  });

  it('sends a recorded call to its own path, as the inspector sends one again', async () => {
    const store = memoryTray(trayOf([item('a', 'R-30')]));
    const { deps } = sender(store, {
      path: '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001&trace=qa-1',
    });
    await sendTray(deps);
    expect(uat.requests[0]?.query).toContain('trace=qa-1');
  });
});

describe('sendTray, stopped before anything leaves', () => {
  it('refuses a production connection not confirmed, and sends there once it is', async () => {
    const store = memoryTray(trayOf([item('a', 'R-40')]));
    const refused = await failureOf(sendTray(sender(store, { connection: liveConnection }).deps));
    expect(refused).toBeInstanceOf(ProductionNotConfirmed);
    expect(refused.message).toContain('Acme live is a production VMS');
    expect(live.requests).toHaveLength(0);
    expect(store.get()).toEqual(trayOf([item('a', 'R-40')]));

    const { deps } = sender(store, {
      connection: liveConnection,
      productionConfirmed: (name) => name === 'live',
    });
    const sent = await sendTray(deps);
    expect(live.requests).toHaveLength(1);
    expect(uat.requests).toHaveLength(0);
    expect(sent.submission.connection).toBe('live');
  });

  it('holds items changed in the VMS for a decision: nothing is sent, no key is made', async () => {
    const loaded = item('a', 'R-50');
    const store = memoryTray(trayOf([loaded, item('b', 'R-51')]));
    const held: TrayItem = {
      ...loaded,
      held: {
        current: { id: '40001', updatedAt: '2026-11-23T09:30:00Z', values: {} },
        conflicts: [],
      },
    };
    const heldKind = {
      ...requisitionPayload,
      beforeSend: async (): Promise<PreSendCheck> => ({
        revised: new Map([['a', held]]),
        notes: [],
      }),
    };
    const error = await failureOf(sendTray(sender(store, { kind: heldKind }).deps));
    expect(error).toBeInstanceOf(HeldForDecision);
    expect(error.message).toMatch(/^One requisition was changed in the VMS since you loaded it/);
    expect(uat.requests).toHaveLength(0);
    expect(store.get().sendKey).toBeNull();
    expect(store.get().items[0]?.held).toBeDefined();
  });
});

describe('sendTray, refused by the portal: everything stays, nothing is locked', () => {
  const refusedWith = async (
    deps: Partial<SendTrayDeps>,
    tray: TrayState = trayOf([item('a', 'R-60'), item('b', 'R-61')]),
  ) => {
    const store = memoryTray(tray);
    const { deps: all, recorded } = sender(store, deps);
    const failure = await requestFailureOf(sendTray(all));
    expect(recorded).toEqual([]);
    expect(store.get().items.map((entry) => entry.id)).toEqual(tray.items.map((entry) => entry.id));
    expect(store.get().lost ?? null).toBeNull();
    // The key stays with the tray: the same batch sent again is the same send.
    expect(store.get().sendKey).not.toBeNull();
    for (const upstream of [uat, live, staging]) expect(upstream.requests).toHaveLength(0);
    return failure;
  };

  it('on a connection the user may not use (403 connection_not_permitted)', async () => {
    const failure = await refusedWith({ connection: stagingConnection });
    expect(failure).toMatchObject({ status: 403, code: 'connection_not_permitted' });
    expect(failure.message).toContain('Acme staging');
  });

  it('for a client org the connection does not act for (403 org_not_permitted)', async () => {
    const failure = await refusedWith({ orgs: { clientOrgId: 1002, vendorOrgId: 9001 } });
    expect(failure).toMatchObject({ status: 403, code: 'org_not_permitted' });
  });

  it('for a body that is not a batch of objects (400 invalid_body), sent without local checks', async () => {
    const tray = trayOf([item('a', 'R-62'), { ...item('b', 'R-63'), raw: 'not an object' }]);
    const store = memoryTray(tray);
    const failure = await requestFailureOf(sendTray(sender(store).deps, { unchecked: true }));
    expect(failure).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(failure.message).toContain('item 2 is a string');
    expect(store.get().items).toHaveLength(2);
    expect(store.get().lost ?? null).toBeNull();
    expect(uat.requests).toHaveLength(0);
  });

  it('for a replay naming no call in the journal (400 invalid_parameter)', async () => {
    const failure = await refusedWith({}, trayOf([item('a', 'R-64')], { replayOf: 987_654 }));
    expect(failure).toMatchObject({ status: 400, code: 'invalid_parameter' });
    expect(failure.message).toContain('987654');
  });
});

describe('sendTray, a key the server knows for other contents', () => {
  it('drops the key (409 idempotency_conflict), keeps the items, and the next send goes with a new one', async () => {
    const key = `shared-${randomUUID()}`;
    await sendTray(sender(memoryTray(trayOf([item('a', 'R-70')], { sendKey: key }))).deps);
    expect(uat.requests).toHaveLength(1);

    const other = memoryTray(trayOf([item('b', 'R-71')], { sendKey: key }));
    const failure = await requestFailureOf(sendTray(sender(other).deps));
    expect(failure).toMatchObject({ status: 409, code: 'idempotency_conflict' });
    expect(failure.message).toContain('a new key will be used');
    expect(other.get()).toMatchObject({ sendKey: null, lost: null });
    expect(other.get().items.map((entry) => entry.id)).toEqual(['b']);
    expect(uat.requests).toHaveLength(1);

    const sent = await sendTray(sender(other).deps);
    expect(uat.requests).toHaveLength(2);
    expect(sent.submission.items).toEqual([item('b', 'R-71').wire]);
  });
});

describe('sendTray, the answer lost: the items are locked under their key', () => {
  it('while the VMS is slow (504, the portal still waiting), and sent again safely gets its answer', async () => {
    uat.respondWith(() => ({
      status: 202,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ batchid: 'rb_slow', received: 1 }),
      delayMs: uatTimeoutMs * 3,
    }));
    let checks = 0;
    const counting = {
      ...requisitionPayload,
      beforeSend: async (): Promise<PreSendCheck> => {
        checks += 1;
        return { revised: new Map(), notes: [] };
      },
    };
    const store = memoryTray(trayOf([item('a', 'R-80')]));
    const failure = await requestFailureOf(sendTray(sender(store, { kind: counting }).deps));
    expect(failure).toMatchObject({ status: 504, code: 'upstream_timeout' });
    const lost = store.get().lost;
    expect(lost).toMatchObject({ itemIds: ['a'], key: store.get().sendKey });
    expect(lost?.message).toContain('Send the same batch again, unchanged');

    // Sent again once the VMS has answered: the same key, its answer, nothing sent twice.
    await new Promise((resolve) => setTimeout(resolve, uatTimeoutMs * 3));
    const sent = await sendTray(sender(store, { kind: counting }).deps);
    expect(sent.batchId).toBe('rb_slow');
    expect(uat.requests).toHaveLength(1);
    // A lost send goes again exactly as it went: not checked again.
    expect(checks).toBe(1);
    expect(store.get()).toMatchObject({ items: [], lost: null, sendKey: null });
  });

  it('when nobody can tell whether the VMS has it (409 outcome_unknown), and stays so when sent again', async () => {
    uat.respondWith(() => ({ reset: true }));
    const store = memoryTray(trayOf([item('a', 'R-90'), item('b', 'R-91')]));
    const failure = await requestFailureOf(sendTray(sender(store).deps));
    expect(failure).toMatchObject({ status: 409, code: 'outcome_unknown' });
    const lost = store.get().lost;
    expect(lost?.itemIds).toEqual(['a', 'b']);
    const key = lost?.key;

    const again = await requestFailureOf(sendTray(sender(store).deps));
    expect(again.code).toBe('outcome_unknown');
    expect(store.get().lost).toMatchObject({ key, at: lost?.at });
    expect(uat.requests).toHaveLength(1);
  });

  it('when the portal cannot be reached', async () => {
    const closed = await closedAddress();
    const store = memoryTray(trayOf([item('a', 'R-100')]));
    const failure = await requestFailureOf(
      sendTray(sender(store, { post: throughPortal(closed) }).deps),
    );
    expect(failure.kind).toBe('offline');
    expect(failure.message).toContain('the portal server could not be reached');
    expect(store.get().lost).toMatchObject({ itemIds: ['a'], key: store.get().sendKey });
  });

  it('when no answer comes within the browser’s wait', async () => {
    uat.respondWith(() => ({ hang: true }));
    const store = memoryTray(trayOf([item('a', 'R-110')]));
    const failure = await requestFailureOf(
      sendTray(sender(store, { waitMs: uatTimeoutMs / 2 }).deps),
    );
    expect(failure.kind).toBe('timeout');
    expect(failure.message).toMatch(/^Sending the batch of 1 requisition got no answer/);
    expect(store.get().lost).toMatchObject({ itemIds: ['a'], key: store.get().sendKey });
  });
});

/** An address where nothing listens: a port taken and given back. */
async function closedAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
