import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '@/domain/api-error';
import { auditPageSchema } from '@/domain/audit';
import {
  journalCurlSchema,
  journalDetailSchema,
  journalPageSchema,
  journalRevealSchema,
} from '@/domain/journal';
import { sandboxDemo } from '@/sandbox/index';
import type { TestPortal } from '@/test-support/capture-upstream';
import { startSignedInPortal, type SignedInPortal } from '@/test-support/signed-in-portal';
import type { TestBrowser } from '@/test-support/test-browser';
import { candidateFor } from '@/test-support/test-data';

/*
 * Personal data in the journal (decision 058), through the real portal with sign-in on and the
 * sandbox VMS behind it: a recruiter sends a candidate with a known name and e-mail; every route
 * that returns a body shows them masked to QA and admins unless revealed with a reason, in full
 * to the sender, and not at all to another recruiter; the log holds neither.
 */

const first = 'Zebulon';
const last = 'Quixwater';
const email = 'zebulon.quixwater@example.net';
/** Every form of the person that must not leave unrevealed. */
const raw = [first, last, email, 'zebulon.quixwater'];
const orgs = `Client_Org_Id=1001&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`;

let world: SignedInPortal;
let portal: TestPortal;
let rita: TestBrowser;
let ron: TestBrowser;
let quinn: TestBrowser;
let ada: TestBrowser;
let callId: number;
/** A search of rita's with the person's e-mail in its address. */
let searchId: number;

function expectNoPersonalValue(text: string, where: string): void {
  for (const value of raw) expect(text, `${where} holds "${value}"`).not.toContain(value);
}

beforeAll(async () => {
  world = await startSignedInPortal({
    prefix: 'journal-personal-',
    processingDelayMs: 10,
    env: {
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      // Every line the portal can write, so that none of them may carry a person's values.
      LOG_LEVEL: 'debug',
    },
    portal: { watcher: { backoff: { firstMs: 30, maxMs: 200 } } },
    accounts: [
      { email: 'rita@example.com', role: 'recruiter', orgs: [1001] },
      { email: 'ron@example.com', role: 'recruiter', orgs: [1001] },
      { email: 'quinn@example.com', role: 'qa' },
      { email: 'ada@example.com', role: 'admin' },
    ],
  });
  portal = world.portal;
  rita = world.browser('rita@example.com');
  ron = world.browser('ron@example.com');
  quinn = world.browser('quinn@example.com');
  ada = world.browser('ada@example.com');
  const sent = await rita.call('POST', `/api/vms/candidates?${orgs}`, {
    body: [candidateFor(40003, { firstname: first, lastname: last, candemail: email })],
  });
  expect(sent.status, sent.text).toBe(202);
  const own = journalPageSchema.parse((await rita.call('GET', '/api/journal?method=POST')).json());
  const [call] = own.entries;
  expect(call?.operation).toBe('candidates');
  callId = call?.id ?? 0;
  // A search whose filter compares a personal field with the person's e-mail: the value sits in
  // the call's address, not in a body.
  const searched = await rita.call(
    'GET',
    `/api/vms/requisitions?${orgs}&filterfield=candemail&filteroperator=%3D&filtervalue=${encodeURIComponent(email)}`,
  );
  expect(searched.status, searched.text).toBeLessThan(500);
  const [search] = journalPageSchema.parse(
    (await rita.call('GET', '/api/journal?operation=requisitions')).json(),
  ).entries;
  expect(search?.path).toContain('filtervalue=');
  searchId = search?.id ?? 0;
  // The watcher's results polls (the answer names the rows, not the person) settle meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(() => world.close());

describe('the journal with personal data, to QA and admins', () => {
  it('shows a call masked, the mask keeping the initials and the e-mail domain', async () => {
    const answer = await quinn.call('GET', `/api/journal/${callId}`);
    expect(answer.status).toBe(200);
    expectNoPersonalValue(answer.text, 'the call detail');
    const detail = journalDetailSchema.parse(answer.json());
    expect(detail.personalData).toBe('masked');
    expect(detail.mayReveal).toBe(true);
    expect(detail.requestBody?.personal?.reading).toBe('json');
    expect(detail.requestBody?.personal?.masked).toBeGreaterThanOrEqual(3);
    const [item] = JSON.parse(detail.requestBody?.text ?? '[]') as Record<string, unknown>[];
    expect(item).toMatchObject({
      firstname: 'Z••••••',
      lastname: 'Q••••••••',
      candemail: 'z•••@example.net',
      requirementid: '40003',
    });
  });

  it('masks every journal route that returns a body, for QA and for an admin', async () => {
    // Each GET of /api/journal that can carry a body or a part of one. A new route that returns
    // bodies belongs here; the check below fails when the journal has one this list does not.
    const routes = [
      `/api/journal`,
      `/api/journal?q=${last}`,
      `/api/journal/${callId}`,
      `/api/journal/${callId}/curl`,
      `/api/journal/${searchId}`,
      `/api/journal/${searchId}/curl`,
      `/api/journal?operation=requisitions`,
      `/api/journal/export?format=har`,
      `/api/journal/export?format=jsonl`,
      `/api/journal/export?format=har&q=${last}`,
    ];
    // The journal's routes as Fastify lists them: one more (a new way to read a body) fails here
    // until the list above covers it. status carries no body; the POSTs (a call's reveal, the
    // revealing export) are the ones that show them.
    const tree = portal.app.printRoutes({ commonPrefix: false }).split('\n');
    const top = tree.findIndex((line) => line.includes('api/journal ('));
    const next = tree.findIndex((line, at) => at > top && /^ {4}[├└]── /u.test(line));
    expect(
      tree
        .slice(top, next)
        .map((line) => line.replace(/^[\s│├└─]+/u, ''))
        .join('\n'),
    ).toBe(
      [
        'api/journal (GET, HEAD)',
        '/ (GET, HEAD)',
        'status (GET, HEAD)',
        'export (GET, HEAD, POST)',
        ':id (GET, HEAD)',
        '/reveal (POST)',
        '/curl (GET, HEAD)',
      ].join('\n'),
    );
    for (const browser of [quinn, ada]) {
      for (const path of routes) {
        const answer = await browser.call('GET', path);
        expect(answer.status, `${path}: ${answer.text}`).toBe(200);
        expectNoPersonalValue(answer.text, path);
      }
    }
  });

  it('masks a filter’s personal value in the address, and says so on the copies', async () => {
    const detail = journalDetailSchema.parse(
      (await quinn.call('GET', `/api/journal/${searchId}`)).json(),
    );
    expect(detail.path).toContain('filterfield=candemail');
    expect(detail.path).toContain('filtervalue=z•••%40example.net');
    expect(detail.url).toContain('filtervalue=z•••%40example.net');
    const copies = journalCurlSchema.parse(
      (await quinn.call('GET', `/api/journal/${searchId}/curl`)).json(),
    );
    expect(copies.curl).toMatch(/^# Personal values are masked/);
    const har = (await quinn.call('GET', '/api/journal/export?format=har&operation=requisitions'))
      .text;
    expect(har).toContain('"name":"filtervalue","value":"z•••@example.net"');
  });

  it('finds the call by the person’s name or e-mail, and shows it masked', async () => {
    for (const words of [last, `${first} ${last}`, email]) {
      const found = await quinn.call('GET', `/api/journal?q=${encodeURIComponent(words)}`);
      expect(found.status).toBe(200);
      expect(journalPageSchema.parse(found.json()).entries.map(({ id }) => id)).toContain(callId);
      expectNoPersonalValue(found.text, `the search for ${words}`);
    }
  });

  it('says the copies are masked, in each of the three forms', async () => {
    const copies = journalCurlSchema.parse(
      (await quinn.call('GET', `/api/journal/${callId}/curl`)).json(),
    );
    expect(copies.curl).toMatch(/^# Personal values are masked/);
    expect(copies.powershell).toMatch(/^# Personal values are masked/);
    expect(copies.fetch).toMatch(/^\/\/ Personal values are masked/);
    expect(copies.curl).toContain('z•••@example.net');

    // A call with nothing personal in it is copied as it was, with no such word.
    const [poll] = journalPageSchema.parse(
      (await quinn.call('GET', '/api/journal?operation=candidateresults')).json(),
    ).entries;
    const pollCopies = journalCurlSchema.parse(
      (await quinn.call('GET', `/api/journal/${poll?.id ?? 0}/curl`)).json(),
    );
    expect(pollCopies.curl).not.toContain('Personal values are masked');
  });
});

describe('revealing one call', () => {
  it('is refused without a reason, with a message that says what to give', async () => {
    for (const body of [{}, { reason: '   ' }]) {
      const answer = await quinn.call('POST', `/api/journal/${callId}/reveal`, { body });
      expect(answer.status).toBe(400);
      const { error } = apiErrorBodySchema.parse(answer.json());
      expect(error.message).toBe(
        'Give a reason to reveal personal data: it is kept in the audit trail.',
      );
      expectNoPersonalValue(answer.text, 'a refused reveal');
    }
  });

  it('shows the call and its copies in full, and the audit trail says who, which and why', async () => {
    const reason = 'Vendor asks why candidate was rejected (ticket 4711)';
    const answer = await quinn.call('POST', `/api/journal/${callId}/reveal`, { body: { reason } });
    expect(answer.status, answer.text).toBe(200);
    const revealed = journalRevealSchema.parse(answer.json());
    expect(revealed.call.personalData).toBe('full');
    expect(revealed.call.requestBody?.personal).toBeUndefined();
    expect(revealed.call.requestBody?.text).toContain(email);
    expect(revealed.copies?.curl).toContain(email);
    expect(revealed.copies?.curl).not.toContain('Personal values are masked');

    const trail = await ada.call('GET', '/api/audit?event=personal_data_revealed');
    expect(trail.status).toBe(200);
    const events = auditPageSchema.parse(trail.json()).entries;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: 'personal_data_revealed',
      email: 'quinn@example.com',
      details: { call: callId, reason },
    });
    expectNoPersonalValue(trail.text, 'the audit trail');
  });

  it('reveals an export for a reason, once in the trail, and never for a recruiter', async () => {
    const reason = 'Data subject access request 2026-11';
    const exported = await ada.call('POST', '/api/journal/export', {
      body: { format: 'jsonl', reason, q: last },
    });
    expect(exported.status, exported.text).toBe(200);
    expect(exported.text).toContain(email);
    expect(exported.headers['content-disposition']).toMatch(
      /^attachment; filename="vms-calls-.+\.jsonl"$/u,
    );
    const trail = auditPageSchema.parse(
      (await ada.call('GET', '/api/audit?event=personal_data_revealed')).json(),
    ).entries;
    expect(trail.find((event) => event.details.export === 'jsonl')).toMatchObject({
      email: 'ada@example.com',
      details: { reason, filter: 'q=(words)' },
    });
    expectNoPersonalValue(JSON.stringify(trail), 'the audit trail');

    const refused = await ron.call('POST', '/api/journal/export', {
      body: { format: 'har', reason: 'because' },
    });
    expect(refused.status).toBe(403);
    const reveal = await rita.call('POST', `/api/journal/${callId}/reveal`, {
      body: { reason: 'mine' },
    });
    expect(reveal.status).toBe(403);
  });

  it('refuses a revealing export without a reason, as it refuses a call’s reveal', async () => {
    for (const body of [{ format: 'har' }, { format: 'har', reason: '  ' }]) {
      const answer = await quinn.call('POST', '/api/journal/export', { body });
      expect(answer.status).toBe(400);
      expect(apiErrorBodySchema.parse(answer.json()).error.message).toBe(
        'Give a reason to reveal personal data: it is kept in the audit trail.',
      );
    }
  });

  it('refuses a reason in the address: nothing exported, nothing revealed, and says where it goes', async () => {
    const before = auditPageSchema.parse(
      (await ada.call('GET', '/api/audit?event=personal_data_revealed')).json(),
    ).entries.length;
    const reason = 'Reason that must not sit in an access log';
    const answer = await ada.call(
      'GET',
      `/api/journal/export?format=jsonl&reveal=${encodeURIComponent(reason)}`,
    );
    expect(answer.status).toBe(400);
    const { error } = apiErrorBodySchema.parse(answer.json());
    expect(error.message).toMatch(/^A reason to reveal personal data is never put in an address/u);
    expect(error.message).toContain('POST /api/journal/export');
    expect(answer.text).not.toContain(reason);
    expectNoPersonalValue(answer.text, 'a refused export');
    const after = auditPageSchema.parse(
      (await ada.call('GET', '/api/audit?event=personal_data_revealed')).json(),
    ).entries;
    expect(after).toHaveLength(before);
    expect(JSON.stringify(after)).not.toContain(reason);
  });
});

describe('the journal to recruiters', () => {
  it('shows the sender their own call in full, with no reveal to offer', async () => {
    const answer = await rita.call('GET', `/api/journal/${callId}`);
    expect(answer.status).toBe(200);
    const detail = journalDetailSchema.parse(answer.json());
    expect(detail).toMatchObject({ personalData: 'full', mayReveal: false });
    expect(detail.requestBody?.text).toContain(email);
    const copies = (await rita.call('GET', `/api/journal/${callId}/curl`)).text;
    expect(copies).toContain(email);
    const search = journalDetailSchema.parse(
      (await rita.call('GET', `/api/journal/${searchId}`)).json(),
    );
    expect(search.path).toContain(`filtervalue=${encodeURIComponent(email)}`);
  });

  it('shows another recruiter nothing of it: not by search, not by id, not in an export', async () => {
    for (const words of [last, email]) {
      const found = await ron.call('GET', `/api/journal?q=${encodeURIComponent(words)}`);
      expect(found.status).toBe(200);
      expect(journalPageSchema.parse(found.json()).entries).toEqual([]);
    }
    const all = journalPageSchema.parse((await ron.call('GET', '/api/journal?limit=200')).json());
    expect(all.entries.filter((entry) => entry.sentBy?.email !== 'ron@example.com')).toEqual([]);
    expect((await ron.call('GET', `/api/journal/${callId}`)).status).toBe(404);
    expect((await ron.call('GET', `/api/journal/${callId}/curl`)).status).toBe(404);
    const exported = await ron.call('GET', '/api/journal/export?format=jsonl');
    expect(exported.status).toBe(200);
    expect(exported.text).toBe('');
  });
});

describe('the log', () => {
  it('carries neither the name nor the e-mail of the person sent, at debug level', () => {
    const log = portal.rawLog();
    // The journey was logged (the send, its results), so an empty log cannot pass.
    expect(log).toContain('"operation":"candidates"');
    expect(log).toContain('"operation":"candidateresults"');
    expectNoPersonalValue(log, 'the log');
  });
});
