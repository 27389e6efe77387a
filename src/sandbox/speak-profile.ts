import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import {
  answerInVmsDialect,
  ownCallFromVms,
  sandboxProfile,
  speaksOwnDialect,
  type OwnCall,
  type VmsProfile,
} from '@/domain/vms-profile';

/**
 * The sandbox answering as a VMS of another profile would: calls arrive at the profile's paths
 * with its parameter names, are read into the portal's dialect (which the sandbox's routes
 * speak), and each answer is written back in the profile's field names, status words, paging,
 * dates and error shape. With the sandbox's own profile nothing here runs.
 */
const calls = new WeakMap<IncomingMessage, OwnCall>();

/** Fastify's `rewriteUrl` for the profile, or nothing when it is the sandbox's own. */
export function profileUrlRewrite(profile: VmsProfile): Pick<FastifyServerOptions, 'rewriteUrl'> {
  if (speaksOwnDialect(profile, sandboxProfile(profile.dates.outbound))) return {};
  return {
    rewriteUrl(raw) {
      const url = raw.url ?? '/';
      const call = ownCallFromVms(profile, raw.method ?? 'GET', url.replace(/^\//, ''));
      // A path the profile does not name is none of this VMS's: the sandbox's own routes (its
      // dialect's paths) must not answer it, or a client with the wrong paths would seem right.
      // Its own pages under /_sandbox/ stay reachable.
      if (!call) return url.startsWith('/_sandbox/') ? url : `/_not_in_this_profile${url}`;
      calls.set(raw, call);
      return `/${call.operation}${call.query}`;
    },
  };
}

/**
 * Writes every answer to a call read by profileUrlRewrite in the profile's dialect; a list's with
 * the count of all the client's requisitions (`countAll`) where the profile names a total.
 */
export function registerProfileAnswers(
  app: FastifyInstance,
  profile: VmsProfile,
  countAll: (clientOrgId: number) => number,
): void {
  if (speaksOwnDialect(profile, sandboxProfile(profile.dates.outbound))) return;
  app.addHook('onSend', async (request, reply, payload) => {
    const call = calls.get(request.raw);
    if (!call || typeof payload !== 'string') return payload;
    const clientOrgId = Number(new URLSearchParams(call.query.slice(1)).get('Client_Org_Id'));
    const total =
      call.operation === 'requisitions' && profile.list.total !== undefined && clientOrgId > 0
        ? countAll(clientOrgId)
        : undefined;
    const answer = answerInVmsDialect(profile, call, reply.statusCode, payload, total);
    reply.code(answer.status);
    reply.header('content-type', 'application/json; charset=utf-8');
    return answer.text;
  });
}
