import { afterAll, describe, expect, it } from 'vitest';
import { readProfile, sandboxProfile, profilePresets, type VmsProfile } from '@/domain/vms-profile';
import { startSandbox } from '@/sandbox/index';
import { runDoctor } from '@/server/doctor/run-doctor';
import { doctorTarget, exampleProfile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { draftProfile, type DraftedProfile } from './draft';

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

function read(drafted: DraftedProfile): VmsProfile {
  const reading = readProfile(drafted, profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  return reading.profile;
}

describe('draft', () => {
  it('other vms', async () => {
    const sandbox = await sandboxSpeaking(exampleProfile());
    const outcome = await draftProfile(doctorTarget(sandbox.url, sandboxProfile()));
    console.log(JSON.stringify(outcome, null, 2));
    if (!outcome.drafted) throw new Error(outcome.problem);
    const report = await runDoctor(doctorTarget(sandbox.url, read(outcome.profile)));
    console.log(
      JSON.stringify(
        report.probes.map((p) => [p.id, p.verdict, p.finding]),
        null,
        2,
      ),
    );
    expect(report.verdict).toBe('passed');
  });
});
