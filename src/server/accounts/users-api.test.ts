import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import {
  createdUserSchema,
  endedSessionsSchema,
  sessionStateSchema,
  userListSchema,
  userSummarySchema,
} from '@/domain/auth';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';

// Admins invite users (one-time links, 72 hours), change their role and
// grants, disable them; the audit lines say so.

const password = 'correct horse battery staple';
const hour = 60 * 60_000;

let dir: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
let admin: TestBrowser;
let clock = Date.parse('2026-11-23T09:00:00Z');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-users-'));
  const dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
    { now: () => clock },
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  admin = new TestBrowser(portal.url);
  await admin.signIn('ada@example.com', password);
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

function errorOf(answer: { json(): unknown }) {
  return apiErrorBodySchema.parse(answer.json()).error;
}

async function invite(email: string, role = 'recruiter', clientOrgIds = [1001]) {
  // Each invite happens a moment later: invites expire by the clock.
  const answer = await admin.call('POST', '/api/users', { body: { email, role, clientOrgIds } });
  expect(answer.status).toBe(201);
  return createdUserSchema.parse(answer.json());
}

const tokenOf = (path: string) => path.replace('/invite/', '');

describe('inviting', () => {
  it('creates the user and a one-time link that sets the password and signs in', async () => {
    const created = await invite(' Rita@Example.com ');
    expect(created.user).toMatchObject({
      email: 'rita@example.com',
      role: 'recruiter',
      clientOrgIds: [1001],
      invited: true,
      disabled: false,
      lastSignInAt: null,
    });
    expect(created.invitePath).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);

    const rita = new TestBrowser(portal.url);
    const short = await rita.call('POST', `/api/invites/${tokenOf(created.invitePath)}`, {
      body: { password: 'too short' },
    });
    expect(short.status).toBe(400);
    const accepted = await rita.call('POST', `/api/invites/${tokenOf(created.invitePath)}`, {
      body: { password },
    });
    expect(accepted.status).toBe(200);
    expect(sessionStateSchema.parse(accepted.json()).user?.email).toBe('rita@example.com');
    expect(rita.cookies.has('vms_session')).toBe(true);

    const again = await new TestBrowser(portal.url).call(
      'POST',
      `/api/invites/${tokenOf(created.invitePath)}`,
      { body: { password: 'another long password' } },
    );
    expect(again.status).toBe(410);
    expect(errorOf(again).code).toBe('invite_invalid');
    // The password set by the invite works; the one tried on the used link does not.
    expect((await new TestBrowser(portal.url).signIn('rita@example.com', password)).status).toBe(
      200,
    );
  });

  it('expires a link after 72 hours', async () => {
    const created = await invite('late@example.com');
    clock += 72 * hour;
    const answer = await new TestBrowser(portal.url).call(
      'POST',
      `/api/invites/${tokenOf(created.invitePath)}`,
      { body: { password } },
    );
    expect(answer.status).toBe(410);
    expect(errorOf(answer).message).toContain('72 hours');
    // The admin's own session ended meanwhile (12 hours at most).
    expect((await admin.signIn('ada@example.com', password)).status).toBe(200);
  });

  it('refuses an address that has an account, and orgs the portal does not act for', async () => {
    const taken = await admin.call('POST', '/api/users', {
      body: { email: 'ada@example.com', role: 'qa', clientOrgIds: [] },
    });
    expect(taken.status).toBe(409);
    expect(errorOf(taken).code).toBe('user_exists');
    const foreign = await admin.call('POST', '/api/users', {
      body: { email: 'x@example.com', role: 'qa', clientOrgIds: [666] },
    });
    expect(foreign.status).toBe(400);
    expect(errorOf(foreign).details).toEqual([
      { field: 'clientOrgIds', message: 'not an org of this portal' },
    ]);
  });
});

describe('granting connections', () => {
  it('limits a user to the connections granted, refuses unknown names, and null gives every one', async () => {
    const created = await invite('cora@example.com', 'recruiter', [1001]);
    // Accounts may use every connection unless told otherwise.
    expect(created.user).toMatchObject({ everyConnection: true, connections: ['default'] });
    const cora = new TestBrowser(portal.url);
    await cora.call('POST', `/api/invites/${tokenOf(created.invitePath)}`, { body: { password } });
    const list = '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001';
    expect((await cora.call('GET', list)).status).toBe(200);

    const unknown = await admin.call('PATCH', `/api/users/${created.user.id}`, {
      body: { connections: ['production'] },
    });
    expect(unknown.status).toBe(400);
    expect(errorOf(unknown).details).toEqual([
      { field: 'connections', message: 'not a connection of this portal' },
    ]);

    const none = await admin.call('PATCH', `/api/users/${created.user.id}`, {
      body: { connections: [] },
    });
    expect(userSummarySchema.parse(none.json())).toMatchObject({
      connections: [],
      everyConnection: false,
    });
    const refused = await cora.call('GET', list);
    expect(refused.status).toBe(403);
    expect(errorOf(refused).code).toBe('connection_not_permitted');

    const every = await admin.call('PATCH', `/api/users/${created.user.id}`, {
      body: { connections: null },
    });
    expect(userSummarySchema.parse(every.json())).toMatchObject({ everyConnection: true });
    expect((await cora.call('GET', list)).status).toBe(200);
  });
});

describe('changing users', () => {
  it('lists them, changes role and grants (the next call sees it), and writes grant_changed', async () => {
    const created = await invite('quinn@example.com', 'recruiter', [1001]);
    const quinn = new TestBrowser(portal.url);
    await quinn.call('POST', `/api/invites/${tokenOf(created.invitePath)}`, { body: { password } });
    const send = '/api/vms/requisitions?Client_Org_Id=1002&Vendor_Org_Id=9001';
    expect((await quinn.call('GET', send)).status).toBe(403);

    const changed = await admin.call('PATCH', `/api/users/${created.user.id}`, {
      body: { role: 'qa', clientOrgIds: [1002, 1001] },
    });
    expect(changed.status).toBe(200);
    expect(userSummarySchema.parse(changed.json())).toMatchObject({
      role: 'qa',
      clientOrgIds: [1001, 1002],
    });
    expect((await quinn.call('GET', send)).status).toBe(200);
    expect((await quinn.call('GET', '/api/journal')).status).toBe(200);

    const list = userListSchema.parse((await admin.call('GET', '/api/users')).json());
    expect(list.users.find((user) => user.email === 'quinn@example.com')).toMatchObject({
      role: 'qa',
      invited: false,
    });
    expect(
      portal
        .logLines()
        .find(
          (line) =>
            line.audit === true &&
            line.event === 'grant_changed' &&
            line.email === 'quinn@example.com',
        ),
    ).toMatchObject({
      email: 'quinn@example.com',
      roleBefore: 'recruiter',
      role: 'qa',
      clientOrgIdsBefore: [1001],
      clientOrgIds: [1001, 1002],
    });
    expect(
      portal.logLines().find((line) => line.audit === true && line.event === 'user_created'),
    ).toMatchObject({ email: 'rita@example.com', role: 'recruiter' });
  });

  it('disabling a user ends their sessions at once', async () => {
    const created = await invite('dora@example.com');
    const dora = new TestBrowser(portal.url);
    await dora.call('POST', `/api/invites/${tokenOf(created.invitePath)}`, { body: { password } });
    expect((await dora.session()).user?.email).toBe('dora@example.com');
    const disabled = await admin.call('PATCH', `/api/users/${created.user.id}`, {
      body: { disabled: true },
    });
    expect(userSummarySchema.parse(disabled.json()).disabled).toBe(true);
    expect((await dora.session()).user).toBeNull();
    expect((await new TestBrowser(portal.url).signIn('dora@example.com', password)).status).toBe(
      401,
    );
  });

  it('ends a user’s sessions without disabling them, and says how many', async () => {
    const created = await invite('eli@example.com');
    const eli = new TestBrowser(portal.url);
    await eli.call('POST', `/api/invites/${tokenOf(created.invitePath)}`, { body: { password } });
    const elsewhere = new TestBrowser(portal.url);
    expect((await elsewhere.signIn('eli@example.com', password)).status).toBe(200);
    const other = new TestBrowser(portal.url);
    expect((await other.signIn('ada@example.com', password)).status).toBe(200);

    const ended = await admin.call('DELETE', `/api/users/${created.user.id}/sessions`);
    expect(ended.status).toBe(200);
    expect(endedSessionsSchema.parse(ended.json())).toEqual({ ended: 2 });
    expect((await eli.session()).user).toBeNull();
    expect((await elsewhere.session()).user).toBeNull();
    // Someone else's session, and the admin's own, go on.
    expect((await other.session()).user?.email).toBe('ada@example.com');
    expect((await admin.session()).user?.email).toBe('ada@example.com');
    // Not disabled: they sign in again.
    expect((await new TestBrowser(portal.url).signIn('eli@example.com', password)).status).toBe(
      200,
    );
    expect(portal.logLines()).toContainEqual(
      expect.objectContaining({
        audit: true,
        event: 'sessions_ended',
        email: 'eli@example.com',
        sessions: 2,
      }),
    );
    const none = await admin.call('DELETE', '/api/users/nobody/sessions');
    expect(none.status).toBe(404);
    expect(errorOf(none).message).toContain('Reload the list');
  });

  it('never leaves the portal without an enabled admin', async () => {
    const list = userListSchema.parse((await admin.call('GET', '/api/users')).json());
    const ada = list.users.find((user) => user.email === 'ada@example.com');
    for (const body of [{ role: 'qa' }, { disabled: true }]) {
      const answer = await admin.call('PATCH', `/api/users/${ada?.id}`, { body });
      expect(answer.status).toBe(409);
      expect(errorOf(answer).code).toBe('last_admin');
    }
    expect((await admin.call('PATCH', '/api/users/nobody', { body: {} })).status).toBe(404);
  });

  it('is for admins only', async () => {
    await addUser(join(dir, 'portal.db'), 'rex@example.com', password, 'qa', [1001]);
    const qa = new TestBrowser(portal.url);
    await qa.signIn('rex@example.com', password);
    expect((await qa.call('GET', '/api/users')).status).toBe(403);
    const post = await qa.call('POST', '/api/users', {
      body: { email: 'y@example.com', role: 'admin', clientOrgIds: [] },
    });
    expect(post.status).toBe(403);
    const list = userListSchema.parse((await admin.call('GET', '/api/users')).json());
    const ada = list.users.find((user) => user.email === 'ada@example.com');
    expect((await qa.call('DELETE', `/api/users/${ada?.id}/sessions`)).status).toBe(403);
    expect((await admin.session()).user?.email).toBe('ada@example.com');
    expect((await new TestBrowser(portal.url).call('GET', '/api/users')).status).toBe(401);
  });
});
