import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { profilePresets, readProfile, sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { startSandbox } from '@/sandbox/index';
import { runDoctor, SendTestRefused } from '@/server/doctor/run-doctor';
import { startCaptureUpstream } from '@/test-support/capture-upstream';
import { doctorTarget, exampleProfile, exampleProfileFile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { draftProfile, type DraftedProfile, type DraftOutcome } from './draft';

/*
 * A draft asked to send its test requisition, against real sandboxes on loopback: the one
 * speaking the documented other VMS (docs/examples/profile-other-vms.json), whose POST-side keys
 * the draft must find as the file writes them, and one writing dates day first; and a production
 * connection, to which nothing is sent.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function sandboxSpeaking(profile: VmsProfile) {
  const db = tempDbPath();
  // Each item waits a little, as a real VMS's queue does: the pending word is seen.
  const sandbox = await startSandbox({
    port: 0,
    dbPath: db.dbPath,
    processingDelayMs: 150,
    profile,
    dateFormat: profile.dates.outbound,
  });
  cleanups.push(db.remove, () => sandbox.close());
  return sandbox;
}

function drafted(outcome: DraftOutcome): DraftedProfile {
  if (!outcome.drafted) throw new Error(`not drafted: ${outcome.problem}`);
  return outcome.profile;
}

function read(profile: DraftedProfile): VmsProfile {
  const reading = readProfile(profile, profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  return reading.profile;
}

const connectionTo = (url: string, production = false) =>
  doctorTarget(url, sandboxProfile(), { production });

const sendTest = { sendTest: true, sendTestWaitMs: 10_000, sendTestPollMs: 100 };

describe('drafting the documented other VMS with a test requisition', () => {
  it('finds the POST-side keys as the reference writes them, and the doctor passes its test send', async () => {
    const sandbox = await sandboxSpeaking(exampleProfile());
    const draft = drafted(await draftProfile(connectionTo(sandbox.url), sendTest));
    // The file as written, not as read: the reader lays it over a preset.
    const reference = JSON.parse(readFileSync(exampleProfileFile, 'utf8')) as {
      paths: Record<string, string>;
      accepted: unknown;
      results: { requisition: { statuses: Record<string, string> }; candidate: unknown };
    };
    expect(draft).toMatchObject({
      paths: {
        requisitionimport: reference.paths.requisitionimport,
        candidates: reference.paths.candidates,
      },
      accepted: reference.accepted,
      results: { requisition: reference.results.requisition },
    });
    // Every candidate key but the incomplete candidate's word, which one test candidate cannot show.
    const { statuses, ...candidate } = reference.results.candidate as {
      statuses: Record<string, string>;
    };
    expect(draft).toMatchObject({ results: { candidate } });
    expect((draft.results as { candidate: { statuses: unknown } }).candidate.statuses).toEqual({
      WAITING: 'Pending',
      SUBMITTED: 'New',
      REJECTED: 'Error',
    });
    expect(statuses).toMatchObject({ WAITING: 'Pending', SUBMITTED: 'New', REJECTED: 'Error' });

    const evidence = draft.$evidence;
    expect(evidence['paths.requisitionimport']).toMatch(
      /^proved: POST api\/v2\/requisitions\/import\?.* was accepted with 200; \d+ other shapes did not$/,
    );
    expect(evidence.accepted).toMatch(/^proved: .* with the batch id at "\/data\/batch\/id"/);
    expect(evidence['results.requisition']).toContain(
      'the status in "state" ("DONE" Success, "FAILED" Error, "QUEUED" Pending)',
    );
    expect(evidence['results.candidate']).toContain('no row number (rows in the order sent)');
    expect(evidence['results.candidate']).toMatch(
      /"WAITING" Pending.*; an incomplete candidate's word was not seen$/,
    );

    const report = await runDoctor(doctorTarget(sandbox.url, read(draft)), {
      sendTest: true,
      sendTestWaitMs: 10_000,
      sendTestPollMs: 100,
    });
    expect(report.verdict).toBe('passed');
    expect(report.probes.find((probe) => probe.id === 'sendTest')?.finding).toMatch(
      /created as Req_Id \d+/,
    );
  });
});

describe('drafting a day-first VMS with a test requisition', () => {
  it('writes the test requisition day first, and the doctor passes the draft with its test send', async () => {
    const own = sandboxProfile('DD/MM/YYYY');
    const dayFirst: VmsProfile = {
      ...own,
      dates: { ...own.dates, dateTimes: 'DD/MM/YYYY HH:mm:ss' },
    };
    const sandbox = await sandboxSpeaking(dayFirst);
    const draft = drafted(await draftProfile(connectionTo(sandbox.url), sendTest));
    // The test requisition starts on the 25th: the VMS created it (its rows settled with a
    // created id) only because its start date was written day first, as dates.outbound drafted.
    expect(draft).toMatchObject({ dates: { outbound: 'DD/MM/YYYY' } });
    expect(draft.$evidence['results.requisition']).toMatch(/^proved: /);
    expect(draft).toMatchObject({
      paths: { requisitionimport: 'requisitionimport', candidates: 'candidates' },
      accepted: own.accepted,
      results: { requisition: own.results.requisition },
    });
    const report = await runDoctor(doctorTarget(sandbox.url, read(draft)), {
      sendTest: true,
      sendTestWaitMs: 10_000,
      sendTestPollMs: 100,
    });
    expect(report.verdict).toBe('passed');
  });
});

describe('a production connection', () => {
  it('is refused the test send, in one line, before any call', async () => {
    const vms = await startCaptureUpstream();
    cleanups.push(() => vms.close());
    const url = vms.url.replace(/\/$/, '');
    const refusal = draftProfile(connectionTo(url, true), sendTest);
    await expect(refusal).rejects.toBeInstanceOf(SendTestRefused);
    await expect(refusal).rejects.toThrow(
      'The default connection is a production VMS: the test requisition would be a real one there. Draft it without the test send, or force it if you mean it (--force).',
    );
    expect(vms.requests).toHaveLength(0);
  });
});
