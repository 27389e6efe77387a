import { describe, expect, it } from 'vitest';
import { ApiError } from '@/domain/api-error';
import { callLineOf } from './call-line';

/*
 * The proxy's record step: the one line per call that the log, the audit trail and the metrics
 * read, with who sent it, and nothing that could hold a secret.
 */

const checked = {
  orgs: { clientOrgId: 1001, vendorOrgId: 9001 },
  itemCount: 2,
  key: 'batch-7f3a',
};
const accepted = {
  status: 202,
  headers: { 'content-type': 'application/json' },
  body: Buffer.from('{"batchid":"b-1"}'),
};

function request(method: string, signedIn: boolean) {
  return {
    id: 'req-9',
    method,
    traceContext: null,
    portalSession: signedIn
      ? {
          user: {
            id: 'u-1',
            email: 'ann@example.com',
            role: 'recruiter' as const,
            clientOrgIds: [1001],
            connections: ['default'],
          },
          csrfToken: 'csrf',
          idHash: Buffer.alloc(32),
        }
      : null,
    apiToken: signedIn ? { name: 'ci', id: 't-1' } : null,
  } as Parameters<typeof callLineOf>[0];
}

describe('callLineOf', () => {
  it('is the audit line of a POST the VMS answered, with who sent it and through which token', () => {
    const line = callLineOf(request('POST', true), {
      operation: 'requisitionimport',
      checked,
      connection: 'default',
      gate: {
        kind: 'forwarded',
        result: { kind: 'answered', outcome: accepted },
        answer: accepted,
      },
      status: 202,
      durationMs: 12.345,
    });
    expect(line).toEqual({
      reqId: 'req-9',
      operation: 'requisitionimport',
      clientOrgId: 1001,
      vendorOrgId: 9001,
      itemCount: 2,
      status: 202,
      upstreamStatus: 202,
      durationMs: 12.3,
      replayed: false,
      outcome: 'forwarded',
      connection: 'default',
      traceId: null,
      idempotencyKey: 'batch-7f3a',
      userId: 'u-1',
      email: 'ann@example.com',
      via: 'token ci',
      audit: true,
      event: 'send',
    });
  });

  it('says a remembered answer was replayed, and a call whose answer never came has no VMS status', () => {
    const replayed = callLineOf(request('POST', false), {
      operation: 'requisitionimport',
      checked,
      connection: 'default',
      gate: { kind: 'replayed', answer: accepted },
      status: 202,
      durationMs: 1,
    });
    expect(replayed).toMatchObject({ replayed: true, upstreamStatus: null, outcome: 'replayed' });
    expect(replayed).not.toHaveProperty('userId');
    const failure = new ApiError('upstream_unreachable', 'connection closed unexpectedly');
    const lost = callLineOf(request('GET', false), {
      operation: 'requisitions',
      checked: { ...checked, itemCount: null, key: undefined },
      connection: 'default',
      gate: {
        kind: 'forwarded',
        result: { kind: 'uncertain', failure },
        answer: accepted,
      },
      status: 502,
      durationMs: 1,
    });
    expect(lost).toMatchObject({ upstreamStatus: null, status: 502 });
    expect(lost).not.toHaveProperty('idempotencyKey');
    expect(lost).not.toHaveProperty('audit');
  });
});
