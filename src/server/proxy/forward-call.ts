import type { FastifyRequest } from 'fastify';
import { ApiError } from '@/domain/api-error';
import {
  listRecordsFromVms,
  pageSize,
  vmsCallPath,
  withoutMisreadDates,
  withPage,
} from '@/domain/vms-profile';
import type { CallNote } from './call-note';
import { errorOutcome, type CallOutcome, type ForwardResult } from './idempotency-key';
import { listTotalHeaders } from './list-total';
import type { Channel } from './proxy-channel';
import type { ProxyTap } from './proxy-tap';
import type { AnswerTranslator } from './translate-answer';
import { certainlyNotSent, upstreamFailure } from './upstream-failure';
import { callVms } from './vms-call';
import type { VmsOperation } from './vms-operations';

/** Most pages of a paged requisition list read for one call: 1,000 pages of the profile's size. */
const maxListPages = 1000;

/** What forwarding needs besides the call: the translate step, and the journal for list pages. */
export interface ForwardSteps {
  translator: AnswerTranslator;
  tap: ProxyTap | null;
}

/** Where the VMS answers `operation`, under the base URL: the route's own name, or the profile's path. */
export function vmsPath(channel: Channel, operation: VmsOperation, query: string): string {
  return channel.translating ? vmsCallPath(channel.profile, operation, query) : operation + query;
}

/**
 * The proxy's forward step: one signed call to the VMS (or, for a VMS that pages its list, one
 * per page), translated when the connection speaks another dialect. The answer is read in full
 * whatever happens to the browser's connection meanwhile, so a batch's answer is still recorded
 * for its retry. A VMS answer, 503 included, goes back as it came: never re-sent behind the
 * user's back. No answer: `not_sent` when the call certainly never left, else `uncertain`.
 */
export async function forward(
  steps: ForwardSteps,
  channel: Channel,
  request: FastifyRequest,
  operation: VmsOperation,
  query: string,
  body: Buffer | undefined,
  waitMs: number,
  note: CallNote | undefined,
): Promise<ForwardResult> {
  try {
    const path = vmsPath(channel, operation, query);
    if (channel.translating && operation === 'requisitions' && pageSize(channel.profile) !== null) {
      return {
        kind: 'answered',
        outcome: await forwardPages(steps, channel, request, path, waitMs, note),
      };
    }
    const answer = await callVms(channel, request.method, path, body, waitMs, note);
    return {
      kind: 'answered',
      outcome: channel.translating
        ? steps.translator.translated(channel, request, operation, query, answer, note)
        : answer.outcome,
    };
  } catch (error) {
    const failure = upstreamFailure(error, {
      host: channel.host,
      timeoutMs: waitMs,
      method: request.method,
    });
    return { kind: certainlyNotSent(error) ? 'not_sent' : 'uncertain', failure };
  }
}

/**
 * GET Requisitions from a VMS that pages its list: every page, each a signed call (and a
 * journal entry) of its own, until one comes back short; the browser gets the whole list.
 */
async function forwardPages(
  { translator, tap }: ForwardSteps,
  channel: Channel,
  request: FastifyRequest,
  path: string,
  waitMs: number,
  note: CallNote | undefined,
): Promise<CallOutcome> {
  const { profile } = channel;
  const size = pageSize(profile) ?? Number.POSITIVE_INFINITY;
  const records: Array<Record<string, unknown>> = [];
  let total: Record<string, string> = {};
  for (let index = 0; index < maxListPages; index += 1) {
    const answer = await callVms(
      channel,
      'GET',
      withPage(profile, path, index),
      undefined,
      waitMs,
      index === 0 ? note : undefined,
    );
    if (index === 0) {
      if (note) {
        note.url = answer.url;
        note.upstreamBody = answer.outcome.body;
      }
    } else {
      tap?.page(request, {
        url: answer.url,
        status: answer.outcome.status,
        headers: answer.journalHeaders,
        body: answer.outcome.body,
        signature: answer.signature,
        latencyMs: answer.latencyMs,
      });
    }
    if (answer.outcome.status < 200 || answer.outcome.status >= 300) {
      return translator.translated(channel, request, 'requisitions', '', answer, undefined);
    }
    const page = listRecordsFromVms(profile, answer.outcome.body.toString('utf8'));
    if (!Array.isArray(page)) {
      request.log.warn(
        { reqId: request.id, operation: 'requisitions', page: index, problem: page.unreadable },
        'vms answer not in its profile',
      );
      return answer.outcome;
    }
    records.push(...page);
    if (index === 0) {
      total = listTotalHeaders(profile, answer.outcome.body.toString('utf8'), request.log);
    }
    if (page.length < size) {
      // Judged on the whole list: a time that proves the profile's day and month order wrong
      // may be on another page than the ones it casts doubt on.
      return translator.listOutcome(
        channel,
        withoutMisreadDates(profile, records),
        total,
        answer.outcome.status,
      );
    }
  }
  return errorOutcome(
    new ApiError(
      'upstream_unreadable',
      `The VMS's requisition list did not end after ${maxListPages} pages of ${size}. Narrow the list with a filter, or check the connection's profile (list.paging).`,
    ),
  );
}
