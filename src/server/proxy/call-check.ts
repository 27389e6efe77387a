import type { FastifyRequest } from 'fastify';
import type { OrgScope } from '@/domain/vms-contract';
import { checkUserScope } from '@/server/accounts/user-scope';
import type { Connection } from '@/server/config';
import { checkBatchBody } from './batch-body';
import { parseIdempotencyKey } from './idempotency-key';
import { checkOrgScope, forwardedQuery, type Query, type VmsOperation } from './vms-operations';

/** A call that passed the proxy's checks: what is forwarded, and what the log and journal say. */
export interface CheckedCall {
  orgs: OrgScope;
  /** The query the VMS gets (`?…` or ''): the browser's, the orgs as checked. */
  query: string;
  /** The bytes the VMS gets, as the browser sent them; undefined for a GET. */
  body: Buffer | undefined;
  /** A POST's item count; null for a GET. */
  itemCount: number | null;
  /** A POST's Idempotency-Key; undefined without one (sent as it comes, every time). */
  key: string | undefined;
}

/** A call as the check step reads it: a Fastify request, or its parts. */
export type CallToCheck = Pick<
  FastifyRequest<{ Querystring: Query }>,
  'query' | 'url' | 'method' | 'body' | 'headers' | 'portalSession'
>;

/**
 * The proxy's second step: the orgs the deployment (and the signed-in user) may act for, the
 * query the VMS gets, a POST's body shape and its Idempotency-Key. Throws the ApiError the browser
 * gets (400, 403) before anything is sent.
 */
export function checkCall(
  request: CallToCheck,
  connection: Pick<Connection, 'clientOrgIds' | 'vendorOrgId' | 'maxBatch'>,
  operation: VmsOperation,
): CheckedCall {
  const orgs = checkOrgScope(request.query, connection);
  checkUserScope(request, orgs.clientOrgId);
  const query = forwardedQuery(request.url, orgs);
  const body = Buffer.isBuffer(request.body) ? request.body : undefined;
  const post = request.method === 'POST';
  return {
    orgs,
    query,
    body,
    itemCount: post ? checkBatchBody(body, connection.maxBatch, operation) : null,
    key: post ? parseIdempotencyKey(request.headers['idempotency-key']) : undefined,
  };
}
