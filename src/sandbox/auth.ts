import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import type { SignatureRecipe } from '@/domain/vms-profile/signature-recipe';
import { describeRecipe, sandboxSignatureRecipe } from '@/domain/vms-profile/signature-recipe';
import { verifyRequest } from '@/node/signature';
import { bodyLimitBytes } from './errors';
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

/** The account whose key the request names; 401 when there is none or it is unknown. */
function identify(
  request: FastifyRequest,
  reference: ReferenceData,
  recipe: SignatureRecipe,
): ApiAccount {
  const keyHeader = recipe.keyHeader;
  const apiKey = header(request, keyHeader);
  if (apiKey === '') {
    throw new ApiError(
      'missing_api_key',
      `The ${keyHeader} header is missing; send the API key from the account page (the sandbox ` +
        `demo key is in docs/sandbox.md) in ${keyHeader}, and the request's signature in ` +
        `${recipe.signatureHeader}.`,
    );
  }
  const account = reference.accounts.get(apiKey);
  if (!account) {
    throw new ApiError(
      'unknown_api_key',
      `The API key in ${keyHeader} is not known to this service; check it for typos, or use the ` +
        'sandbox demo key from docs/sandbox.md.',
    );
  }
  return account;
}

const skewSeconds = 300;

/** The timestamp as it travelled, or undefined when the recipe does not send it. */
function travelledTimestamp(request: FastifyRequest, recipe: SignatureRecipe): string | undefined {
  const { travel } = recipe.timestamp;
  if (travel === 'none') return undefined;
  if ('header' in travel) return header(request, travel.header);
  const value = parseQuery(request.query)[travel.query];
  return typeof value === 'string' ? value : '';
}

/** 403 "Not Authorized" unless the signature is the recipe's for this account, now. */
function checkSignature(
  request: FastifyRequest,
  account: ApiAccount,
  recipe: SignatureRecipe,
  now: () => Date,
  body: Buffer,
): void {
  const timestamp = travelledTimestamp(request, recipe);
  const valid = verifyRequest(recipe, {
    apiKey: account.apiKey,
    secret: account.secret,
    signature: header(request, recipe.signatureHeader),
    body,
    now: now().getTime(),
    skewSeconds,
    ...(timestamp !== undefined && { timestamp }),
  });
  if (valid) return;
  // "Not Authorized" is what the real gateway answers; the detail says what to check, in the
  // words of the recipe this sandbox was started with.
  throw new ApiError('not_authorized', 'Not Authorized', [
    {
      field: recipe.signatureHeader,
      message:
        `${recipe.signatureHeader} must be the ${describeRecipe(recipe)}; the timestamp is ` +
        `accepted for ${skewSeconds} seconds either side of the server clock. Check the secret ` +
        'and the clock of the signing machine.',
    },
  ]);
}

/** The whole body, as sent, for a recipe that signs it; refused like Fastify would above the limit. */
async function readBody(payload: AsyncIterable<Buffer | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of payload) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    length += bytes.length;
    if (length > bodyLimitBytes)
      throw Object.assign(new Error('body too large'), {
        code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      });
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
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
 *
 * The signature is checked by `signatureRecipe` (the sandbox's own by default). A recipe that
 * signs the body cannot be checked before the body arrives: the key is still checked first, and
 * the signature and orgs as soon as the body has been read whole, before it is parsed.
 */
export function registerAuthentication(
  app: FastifyInstance,
  reference: ReferenceData,
  now: () => Date,
  signatureRecipe: SignatureRecipe = sandboxSignatureRecipe,
): void {
  const signsBody = signatureRecipe.order.includes('body');
  const accounts = new WeakMap<FastifyRequest, ApiAccount>();
  const admit = (request: FastifyRequest, account: ApiAccount, body: Buffer) => {
    checkSignature(request, account, signatureRecipe, now, body);
    if (request.routeOptions.url === undefined) return;
    scopes.set(request, authorize(request, account, reference));
  };
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.url?.startsWith('/_sandbox/')) return;
    const account = identify(request, reference, signatureRecipe);
    if (signsBody) accounts.set(request, account);
    else admit(request, account, Buffer.alloc(0));
  });
  if (!signsBody) return;
  app.addHook('preParsing', async (request, _reply, payload) => {
    const account = accounts.get(request);
    if (account === undefined) return payload;
    const body = await readBody(payload);
    admit(request, account, body);
    // The parser reads the same bytes that were verified.
    const replay = Readable.from([body]);
    return Object.assign(replay, { receivedEncodedLength: body.length });
  });
}
