import { ApiError } from '../domain/api-error';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { verifySignature } from '../node/signature';
import { orgIdParam, parseQuery } from './query';
import type { ApiAccount, ClientReference, ReferenceData } from './reference';

/** Who is calling, and for which client and vendor org: known once the request is authorized. */
export interface RequestScope {
  account: ApiAccount;
  client: ClientReference;
  clientOrgId: number;
  vendorOrgId: number;
}

// Kept beside the request rather than decorated onto it, so the sandbox adds nothing to
// Fastify's global request type that the portal server shares.
const scopes = new WeakMap<FastifyRequest, RequestScope>();

export function scopeOf(request: FastifyRequest): RequestScope {
  const scope = scopes.get(request);
  if (!scope) throw new Error('scopeOf() called on a route that is not authorized.');
  return scope;
}

const listFormat = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

function header(request: FastifyRequest, name: string): string {
  const value = request.headers[name];
  return typeof value === 'string' ? value.trim() : '';
}

function authenticate(
  request: FastifyRequest,
  reference: ReferenceData,
  now: () => Date,
): ApiAccount {
  const apiKey = header(request, 'x-api-key');
  if (apiKey === '') {
    throw new ApiError(
      'missing_api_key',
      'The x-api-key header is missing; send the API key from the account page (the sandbox ' +
        "demo key is in docs/sandbox.md) in x-api-key, and the request's signature in x-signature.",
    );
  }
  const account = reference.accounts.get(apiKey);
  if (!account) {
    throw new ApiError(
      'unknown_api_key',
      'The API key in x-api-key is not known to this service; check it for typos, or use the ' +
        'sandbox demo key from docs/sandbox.md.',
    );
  }
  if (
    !verifySignature(apiKey, account.secret, header(request, 'x-signature'), {
      now: now().getTime(),
    })
  ) {
    // "Not Authorized" is what the real gateway answers; the detail says what to check.
    throw new ApiError('not_authorized', 'Not Authorized', [
      {
        field: 'x-signature',
        message:
          'x-signature must be the lowercase hex SHA-256 of the API key, the secret and the ' +
          'current Unix time in seconds, concatenated; it is accepted for 300 seconds either side ' +
          'of the server clock. Check the secret and the clock of the signing machine.',
      },
    ]);
  }
  return account;
}

function authorize(
  request: FastifyRequest,
  account: ApiAccount,
  reference: ReferenceData,
): RequestScope {
  const query = parseQuery(request.query);
  const clientOrgId = orgIdParam(query, 'Client_Org_Id', account.clientOrgIds[0] ?? 1001);
  const vendorOrgId = orgIdParam(query, 'Vendor_Org_Id', account.vendorOrgId);
  if (vendorOrgId !== account.vendorOrgId) {
    throw new ApiError(
      'org_not_permitted',
      `This API key belongs to vendor org ${account.vendorOrgId}, so it may not act for ` +
        `Vendor_Org_Id ${vendorOrgId}; send Vendor_Org_Id=${account.vendorOrgId} or use that vendor's key.`,
    );
  }
  const client = reference.clients.get(clientOrgId);
  if (!client || !account.clientOrgIds.includes(clientOrgId)) {
    throw new ApiError(
      'org_not_permitted',
      `This API key may not act for client org ${clientOrgId}; it serves client org` +
        `${account.clientOrgIds.length === 1 ? '' : 's'} ${listFormat.format(account.clientOrgIds.map(String))}. ` +
        'A sub-org goes in the orgid field, with its client org in Client_Org_Id.',
    );
  }
  return { account, client, clientOrgId, vendorOrgId };
}

/**
 * Authentication before anything else, like the real gateway: the key, then the signature, then
 * the org parameters and whether the key may serve them; only then is a body read. The sandbox's
 * own help routes (/_sandbox/…) are open. An unknown path is refused after authentication.
 */
export function registerAuthentication(
  app: FastifyInstance,
  reference: ReferenceData,
  now: () => Date,
): void {
  app.addHook('onRequest', async (request) => {
    const route = request.routeOptions.url;
    if (route?.startsWith('/_sandbox/')) return;
    const account = authenticate(request, reference, now);
    if (route === undefined) return;
    scopes.set(request, authorize(request, account, reference));
  });
}
