import { describe, expect, it } from 'vitest';
import { ApiError } from '@/domain/api-error';
import type { SessionUser } from '@/domain/auth';
import { testConfig } from '@/test-support/capture-upstream';
import { checkCall, type CallToCheck } from './call-check';

/*
 * The proxy's check step: orgs, the signed-in user's grants, the query the VMS gets, a POST's
 * shape and its key, each refused with the error the browser gets before anything is sent.
 */

const connection = testConfig('http://127.0.0.1:1/').connections[0];
if (!connection) throw new Error('testConfig has a connection');

function call(parts: Partial<CallToCheck> & { url: string }): CallToCheck {
  const query = Object.fromEntries(new URL(parts.url, 'http://portal').searchParams);
  return { method: 'GET', body: undefined, headers: {}, portalSession: null, query, ...parts };
}

function signedIn(user: Partial<SessionUser>): CallToCheck['portalSession'] {
  return {
    user: {
      id: 'u-1',
      email: 'ann@example.com',
      role: 'recruiter',
      clientOrgIds: [1001],
      connections: [connection?.name ?? ''],
      ...user,
    },
    csrfToken: 'csrf',
    idHash: Buffer.alloc(32),
  };
}

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.code;
    throw error;
  }
  return 'none';
}

describe('checkCall', () => {
  it('passes a GET with its query as sent, no body, no key', () => {
    const url = '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&status=Open';
    const checked = checkCall(call({ url }), connection, 'requisitions');
    expect(checked).toEqual({
      orgs: { clientOrgId: 1001, vendorOrgId: 9001 },
      query: '?Client_Org_Id=1001&Vendor_Org_Id=9001&status=Open',
      body: undefined,
      itemCount: null,
      key: undefined,
    });
  });

  it('counts a POST batch and reads its Idempotency-Key, keeping the bytes as they came', () => {
    const body = Buffer.from('[{"titlerole":"Welder"},{"titlerole":"Zürich fitter"}]');
    const checked = checkCall(
      call({
        url: '/api/vms/requisitionimport?Client_Org_Id=1002&Vendor_Org_Id=9001',
        method: 'POST',
        body,
        headers: { 'idempotency-key': 'batch-7f3a' },
      }),
      connection,
      'requisitionimport',
    );
    expect(checked.itemCount).toBe(2);
    expect(checked.key).toBe('batch-7f3a');
    expect(checked.body).toBe(body);
  });

  it('refuses an org the deployment does not serve, a bad batch, or a malformed key', () => {
    const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
    expect(
      codeOf(() =>
        checkCall(
          call({ url: '/x?Client_Org_Id=4242&Vendor_Org_Id=9001' }),
          connection,
          'requisitions',
        ),
      ),
    ).toBe('org_not_permitted');
    const post = (body: string, key?: string) =>
      call({
        url: `/x${orgs}`,
        method: 'POST',
        body: Buffer.from(body),
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
    expect(codeOf(() => checkCall(post('{"a":1}'), connection, 'requisitionimport'))).toBe(
      'invalid_body',
    );
    expect(
      codeOf(() => checkCall(post('[{"a":1}]', 'no spaces'), connection, 'requisitionimport')),
    ).toBe('invalid_parameter');
  });

  it('refuses a client org the signed-in user was not granted', () => {
    const url = '/x?Client_Org_Id=1002&Vendor_Org_Id=9001';
    expect(
      codeOf(() =>
        checkCall(call({ url, portalSession: signedIn({}) }), connection, 'requisitions'),
      ),
    ).toBe('forbidden');
    const granted = signedIn({ clientOrgIds: [1001, 1002] });
    expect(
      checkCall(call({ url, portalSession: granted }), connection, 'requisitions').orgs,
    ).toEqual({ clientOrgId: 1002, vendorOrgId: 9001 });
  });
});
