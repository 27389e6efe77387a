import { afterAll, describe, expect, it } from 'vitest';
import type { DoctorReport, ProbeId } from '@/domain/connection-check';
import { profilePresets, readProfile, sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import { sandboxDemo, startSandbox } from '@/sandbox/index';
import { runDoctor } from '@/server/doctor/run-doctor';
import { startCaptureUpstream } from '@/test-support/capture-upstream';
import { doctorTarget, exampleProfile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { draftProfile, type DraftedProfile, type DraftOutcome } from './draft';

/*
 * Drafting a profile from real VMSs on loopback: the sandbox speaking the documented other VMS's
 * profile (docs/examples/profile-other-vms.json), and its own dialect with day-first date-times,
 * each drafted in one go and then checked by the doctor with the draft; a VMS whose results live
 * where no known shape looks; and an empty VMS that shows almost nothing.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function sandboxSpeaking(profile: VmsProfile) {
  const db = tempDbPath();
  const sandbox = await startSandbox({ port: 0, dbPath: db.dbPath, processingDelayMs: 0, profile });
  cleanups.push(db.remove, () => sandbox.close());
  return sandbox;
}

function drafted(outcome: DraftOutcome): DraftedProfile {
  if (!outcome.drafted) throw new Error(`not drafted: ${outcome.problem}`);
  return outcome.profile;
}

/** The draft as the portal reads it (its `$evidence` ignored). */
function read(profile: DraftedProfile): VmsProfile {
  const reading = readProfile(profile, profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  return reading.profile;
}

const verdicts = (report: DoctorReport) =>
  Object.fromEntries(report.probes.map((probe) => [probe.id, probe.verdict])) as Record<
    ProbeId,
    string
  >;

/** The connection as a deployment would give it: its profile is not what the draft reads. */
const connectionTo = (url: string) => doctorTarget(url, sandboxProfile());

describe('drafting the documented other VMS', () => {
  const other = exampleProfile();

  it("drafts, in one go, the profile's list, results, error and date keys, and the doctor passes it", async () => {
    const sandbox = await sandboxSpeaking(other);
    const draft = drafted(await draftProfile(connectionTo(sandbox.url)));
    const profile = read(draft);
    expect(profile.signature).toEqual(other.signature);
    expect(profile.paths.requisitions).toBe(other.paths.requisitions);
    expect(profile.paths.requisitionresults).toBe(other.paths.requisitionresults);
    expect(profile.paths.candidateresults).toBe(other.paths.candidateresults);
    expect(profile.list.records).toBe(other.list.records);
    expect(profile.list.fieldNames).toBe(other.list.fieldNames);
    expect(profile.list.fields).toEqual(other.list.fields);
    expect(profile.list.filter).toEqual(other.list.filter);
    expect(profile.list.paging).toMatchObject({
      style: 'page',
      page: 'page',
      size: 'per_page',
      firstPage: 1,
    });
    expect(profile.errors.message).toBe(other.errors.message);
    expect(profile.dates.dateTimes).toBe(other.dates.dateTimes);
    expect(profile.dates.records).toBe(other.dates.records);

    const evidence = draft.$evidence;
    expect(evidence['dates.dateTimes']).toMatch(/^proved: .*cannot be DD\/MM\/YYYY HH:mm:ss/);
    expect(evidence['list.records']).toMatch(
      /^proved: GET api\/v2\/requisitions\?.* answered an array at "\/items" \(\d+ records\)$/,
    );
    expect(evidence['dates.outbound']).toMatch(/^guess: /);
    // What only a POST would show is left out, with the reason.
    expect(draft).not.toHaveProperty('accepted');
    expect(evidence.accepted).toMatch(
      /^undecided: a draft POSTs only when asked to send a test requisition/,
    );
    expect(evidence['paths.requisitionimport']).toMatch(/^undecided: /);

    const report = await runDoctor(doctorTarget(sandbox.url, profile));
    expect(verdicts(report)).toEqual({
      reachable: 'passed',
      clock: 'passed',
      credentials: 'passed',
      clientOrgs: 'passed',
      listRecords: 'passed',
      paging: 'passed',
      filter: 'passed',
      resultsPaths: 'passed',
      dates: 'passed',
    });
  });

  it("takes the recipe that reproduces a signed example, and where it found the example's parts", async () => {
    const sandbox = await sandboxSpeaking(other);
    // A known-good client's call: the documented recipe, signed at a past moment.
    const signed = signRequest(other.signature, {
      apiKey: sandboxDemo.apiKey,
      secret: sandboxDemo.apiSecret,
      now: Date.parse('2026-03-15T14:30:00Z'),
    });
    const example = {
      method: 'GET' as const,
      path: '/api/v2/requisitions?Client_Org_Id=1001',
      headers: signed.headers,
    };
    const draft = drafted(await draftProfile(connectionTo(sandbox.url), { example }));
    expect(read(draft).signature).toEqual(other.signature);
    expect(draft.$evidence.signature).toContain(
      "the recipe that reproduces the example's x-signature header, with the key in x-api-key and the timestamp in the x-timestamp header",
    );
  });

  it('refuses an example no recipe reproduces, without calling the VMS', async () => {
    const vms = await startCaptureUpstream();
    cleanups.push(() => vms.close());
    const example = {
      method: 'GET' as const,
      path: '/x',
      headers: {
        'x-api-key': sandboxDemo.apiKey,
        'x-timestamp': '1773585000',
        'x-signature': 'AAAA',
      },
    };
    const outcome = await draftProfile(connectionTo(vms.url.replace(/\/$/, '')), { example });
    expect(outcome).toMatchObject({ drafted: false });
    expect(outcome.drafted ? '' : outcome.problem).toContain(
      "no recipe reproduces the example's signature",
    );
    expect(vms.requests).toHaveLength(0);
  });
});

describe('drafting a VMS that writes its date-times day first', () => {
  it('proves the day-first pattern from a day above 12, and the doctor passes the draft', async () => {
    const own = sandboxProfile();
    const dayFirst: VmsProfile = {
      ...own,
      dates: { ...own.dates, dateTimes: 'DD/MM/YYYY HH:mm:ss' },
    };
    const sandbox = await sandboxSpeaking(dayFirst);
    const draft = drafted(await draftProfile(connectionTo(sandbox.url)));
    expect(draft).toMatchObject({ dates: { dateTimes: 'DD/MM/YYYY HH:mm:ss' } });
    // A created or updated time whose day is above 12 rules month-first out.
    expect(draft.$evidence['dates.dateTimes']).toMatch(
      /^proved: .*"(1[3-9]|2\d|3[01])\/\d\d\/\d{4} \d\d:\d\d:\d\d" cannot be MM\/DD\/YYYY HH:mm:ss/,
    );
    expect(draft).toMatchObject({ list: { paging: { style: 'none' } } });
    const report = await runDoctor(doctorTarget(sandbox.url, read(draft)));
    expect(report.verdict).toBe('passed');
  });
});

describe('a VMS whose results are where no known shape looks', () => {
  it('drafts nothing, naming every results call it tried', async () => {
    const own = sandboxProfile();
    const unusual: VmsProfile = {
      ...own,
      paths: {
        ...own.paths,
        requisitionresults: 'outcomes/reqs/{batchid}/lines',
        candidateresults: 'outcomes/cands/{batchid}/lines',
      },
    };
    const sandbox = await sandboxSpeaking(unusual);
    const outcome = await draftProfile(connectionTo(sandbox.url));
    if (outcome.drafted) throw new Error('drafted a profile without a results path');
    expect(outcome.problem).toContain(
      'no results path was found for requisition batches or candidate batches',
    );
    expect(outcome.tried).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^GET requisitionresults\?batchid=draft-[0-9a-f]+&Client_Org_Id=1001&Vendor_Org_Id=9001 → 404/,
        ),
      ]),
    );
    expect(outcome.tried.some((line) => line.startsWith('GET batches/draft-'))).toBe(true);
  });
});

describe('an empty VMS', () => {
  it('sends only GETs, leaves out what it cannot see, and the doctor stays undecided on it', async () => {
    const vms = await startCaptureUpstream();
    cleanups.push(() => vms.close());
    const url = vms.url.replace(/\/$/, '');
    const draft = drafted(await draftProfile(connectionTo(url)));
    expect(vms.requests.length).toBeGreaterThan(0);
    expect(new Set(vms.requests.map((request) => request.method))).toEqual(new Set(['GET']));
    expect(draft).not.toHaveProperty('list.fields');
    expect(draft.$evidence['list.fields']).toBe(
      'undecided: the VMS listed no requisitions to read it from',
    );
    expect(draft.$evidence.dates).toMatch(/^undecided: /);
    const report = await runDoctor(doctorTarget(url, read(draft)));
    expect(verdicts(report)).toMatchObject({ listRecords: 'undecided', dates: 'undecided' });
    expect(report.verdict).toBe('undecided');
  });
});

describe('a VMS whose records show only their id and times', () => {
  it('leaves list.fieldNames out, and the doctor is undecided on it rather than passing the preset', async () => {
    const records = [
      {
        Req_Id: 7,
        Req_Created_Date_Time: '2026-03-15T14:00:00Z',
        Req_Updated_Date_Time: '2026-03-16T15:00:00Z',
      },
      {
        Req_Id: 8,
        Req_Created_Date_Time: '2026-04-20T09:00:00Z',
        Req_Updated_Date_Time: '2026-04-21T17:30:00Z',
      },
    ];
    const vms = await startCaptureUpstream();
    cleanups.push(() => vms.close());
    vms.respondWith(({ path, query }) => {
      const wanted = new URLSearchParams(query).get('filtervalue');
      const body =
        path === '/requisitions'
          ? records.filter((record) => wanted === null || String(record.Req_Id) === wanted)
          : [];
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      };
    });
    const url = vms.url.replace(/\/$/, '');
    const draft = drafted(await draftProfile(connectionTo(url)));
    expect(draft).not.toHaveProperty(['list', 'fieldNames']);
    expect(draft.$evidence['list.fieldNames']).toMatch(/^undecided: /);
    expect(draft).toMatchObject({
      list: { fields: { reqId: 'Req_Id' } },
      dates: { dateTimes: 'iso-8601' },
    });
    const report = await runDoctor(doctorTarget(url, read(draft)));
    const listRecords = report.probes.find((probe) => probe.id === 'listRecords');
    expect(listRecords?.verdict).toBe('undecided');
    expect(listRecords?.finding).toContain(
      'no field whose name shows whether the VMS names payload fields',
    );
    expect(report.verdict).toBe('undecided');
  });
});

describe('reading a drafted profile', () => {
  it('ignores $evidence, whatever it holds', () => {
    const reading = readProfile(
      {
        preset: 'vectorvms',
        $evidence: { 'list.records': 'proved: …', nested: { not: 'a string' } },
      },
      profilePresets,
    );
    expect(reading).toEqual({ profile: profilePresets.vectorvms() });
  });
});
