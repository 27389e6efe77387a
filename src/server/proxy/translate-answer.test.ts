import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilePresets, readProfile, type VmsProfile } from '@/domain/vms-profile';
import { testConfig } from '@/test-support/capture-upstream';
import { newCallNote } from './call-note';
import { closeChannels, openChannel, type Channel } from './proxy-channel';
import { AnswerTranslator } from './translate-answer';
import type { VmsAnswer } from './vms-call';

/*
 * The proxy's translate step, for a VMS in another dialect (the documented example profile): its
 * answers given to the browser in the portal's own, the journal keeping what the VMS sent; an
 * answer the profile does not describe goes on as it came, with a warning.
 */

function otherProfile(): VmsProfile {
  const raw: unknown = JSON.parse(readFileSync('docs/examples/profile-other-vms.json', 'utf8'));
  const reading = readProfile(raw, profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  return reading.profile;
}

let channel: Channel;
const warnings: unknown[][] = [];
const log = { warn: (...args: unknown[]) => warnings.push(args) } as never;

beforeAll(() => {
  const connection = testConfig('http://127.0.0.1:1/').connections[0];
  if (!connection) throw new Error('testConfig has a connection');
  channel = openChannel({ ...connection, profile: otherProfile() }, 'http://127.0.0.1:1/');
});

afterAll(async () => {
  await closeChannels(new Map([['other', channel]]));
});

function answer(status: number, body: string): VmsAnswer {
  return {
    outcome: { status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body) },
    url: 'http://127.0.0.1:1/api/v2/requisitions/import',
    journalHeaders: {},
    signature: 'sig',
    latencyMs: 3,
  };
}

describe('AnswerTranslator', () => {
  it('gives an accepted batch in the portal dialect, the journal keeping what the VMS sent', () => {
    expect(channel.translating).toBe(true);
    const translator = new AnswerTranslator(log);
    const sent = '{"data":{"batch":{"id":"B-77"}}}';
    const kept = newCallNote('requisitionimport');
    const outcome = translator.translated(
      channel,
      { id: 'req-1', method: 'POST', log },
      'requisitionimport',
      '',
      answer(200, sent),
      kept,
    );
    expect(outcome.status).toBe(200);
    expect(outcome.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(outcome.body.toString('utf8'))).toMatchObject({ batchid: 'B-77' });
    expect(kept.batchId).toBe('B-77');
    expect(kept.upstreamBody?.toString('utf8')).toBe(sent);
  });

  it('passes an answer the profile does not describe on as it came, and says so', () => {
    const translator = new AnswerTranslator(log);
    warnings.length = 0;
    const odd = answer(200, '{"unexpected":true}');
    const outcome = translator.translated(
      channel,
      { id: 'req-2', method: 'POST', log },
      'requisitionimport',
      '',
      odd,
      newCallNote('requisitionimport'),
    );
    expect(outcome).toBe(odd.outcome);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[1]).toBe('vms answer not in its profile');
  });
});
