/**
 * The load benchmark's simulated users: each one sends a batch of valid requisitions, polls its
 * results as the browser does (GET requisitionresults?batchid=, at once and then backing off as
 * the app does) until no row is Pending, and then sends the next batch, until the leg's time is
 * up. A share of them are "retriers": each of their batches is sent a second time with the same
 * Idempotency-Key and the same body, as a browser retries a send whose answer it did not see,
 * alternately while the first is still in flight and after its answer.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { nextPollDelay } from '@/core/batch/model/results-polling';
import { signatureHeaders } from '@/node/signature';
import { sandboxDemo } from '@/sandbox';
import { REPLAYED_HEADER } from '@/server/proxy/vms-proxy';
import type { TestBrowser } from '@/test-support/test-browser';
import { requisitionInsert } from '@/test-support/test-data';

export const orgQuery = `Client_Org_Id=${sandboxDemo.clientOrgIds[0]}&Vendor_Org_Id=${sandboxDemo.vendorOrgId}`;

export interface Answer {
  status: number;
  text: string;
  replayed: boolean;
}

/** How one user reaches the VMS: through the portal's session, or signing its own calls. */
export interface Route {
  send(body: string, key: string): Promise<Answer>;
  results(batchId: string): Promise<Answer>;
}

/** Through a portal, with a signed-in browser's cookies, CSRF token and Origin. */
export function portalRoute(browser: TestBrowser): Route {
  return {
    async send(body, key) {
      const answer = await browser.call('POST', `/api/vms/requisitionimport?${orgQuery}`, {
        raw: { contentType: 'application/json', body },
        headers: { 'idempotency-key': key },
      });
      return {
        status: answer.status,
        text: answer.text,
        replayed: answer.headers[REPLAYED_HEADER] === 'true',
      };
    },
    async results(batchId) {
      const answer = await browser.call(
        'GET',
        `/api/vms/requisitionresults?${orgQuery}&batchid=${encodeURIComponent(batchId)}`,
      );
      return { status: answer.status, text: answer.text, replayed: false };
    },
  };
}

/**
 * Straight at a VMS (or a pass-through in front of it) with the sandbox demo credentials, each
 * call signed here as the portal would sign it. The Idempotency-Key is sent too; a VMS that
 * ignores it (the sandbox does) receives a retried batch twice.
 */
export function signedRoute(baseUrl: string): Route {
  const call = async (method: 'GET' | 'POST', path: string, body?: string, key?: string) => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...signatureHeaders(sandboxDemo.apiKey, sandboxDemo.apiSecret),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      ...(body === undefined ? {} : { body }),
    });
    return { status: res.statusCode, text: await res.body.text(), replayed: false };
  };
  return {
    send: (body, key) => call('POST', `/requisitionimport?${orgQuery}`, body, key),
    results: (batchId) =>
      call('GET', `/requisitionresults?${orgQuery}&batchid=${encodeURIComponent(batchId)}`),
  };
}

/**
 * Through a signing proxy with no sign-in of its own (proxy-peer.ts): the portal's paths, no
 * session. It does not know the Idempotency-Key either, so a resend goes through twice.
 */
export function peerRoute(baseUrl: string): Route {
  const call = async (method: 'GET' | 'POST', path: string, body?: string, key?: string) => {
    const res = await request(`${baseUrl}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      ...(body === undefined ? {} : { body }),
    });
    return { status: res.statusCode, text: await res.body.text(), replayed: false };
  };
  return {
    send: (body, key) => call('POST', `/api/vms/requisitionimport?${orgQuery}`, body, key),
    results: (batchId) =>
      call('GET', `/api/vms/requisitionresults?${orgQuery}&batchid=${encodeURIComponent(batchId)}`),
  };
}

export interface UserPlan {
  /** Prefix of every item's ClientInternalReq: the upstream counts copies of each reference. */
  tag: string;
  id: number;
  route: Route;
  /** Where this user's retries go (another portal process, or the same route). */
  retryRoute: Route;
  retrier: boolean;
  items: number;
  /** Calls started before this (the warm-up) are not timed, and their batches not measured. */
  measureFrom: number;
  endAt: number;
  /** A batch whose rows are still Pending this long after its send is an error. */
  settleTimeoutMs: number;
}

export interface UserTally {
  batches: number;
  /** Items in batches the VMS accepted (each once, counted here). */
  items: number;
  /** Batches sent after the warm-up: the throughput and CPU figures are theirs. */
  measuredBatches: number;
  /** Each first send of a batch: the batch id answered (null: none) and its latency in ms. */
  sends: Timing[];
  /** Each deliberate resend with the same key. */
  resends: Timing[];
  /** Each results poll, with the batch id asked about. */
  polls: Timing[];
  retries: number;
  /** Pairs where one of the two was answered from the portal's remembered answer (its header). */
  replayed: number;
  /** Resends answered with a batch id other than the first send's: a second batch upstream. */
  otherBatchId: number;
  /** Rows whose final status is not Success (the items are valid: none should be). */
  itemsNotSuccess: number;
  notSuccessSamples: string[];
  errors: number;
  errorSamples: string[];
}

export function emptyTally(): UserTally {
  return {
    batches: 0,
    items: 0,
    measuredBatches: 0,
    sends: [],
    resends: [],
    polls: [],
    retries: 0,
    replayed: 0,
    otherBatchId: 0,
    itemsNotSuccess: 0,
    notSuccessSamples: [],
    errors: 0,
    errorSamples: [],
  };
}

export interface Timing {
  batchId: string | null;
  ms: number;
  /** Answered from the portal's remembered answer: this call never reached the VMS. */
  replayed: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function batchIdOf(answer: Answer): string | null {
  if (answer.status !== 202 && answer.status !== 200) return null;
  try {
    const value: unknown = JSON.parse(answer.text);
    const id: unknown =
      typeof value === 'object' && value !== null ? Reflect.get(value, 'batchid') : undefined;
    return typeof id === 'string' && id !== '' ? id : null;
  } catch {
    return null;
  }
}

/** One user's batches until `endAt`; the batch in hand when the time is up is finished. */
export async function runUser(plan: UserPlan, tally: UserTally): Promise<void> {
  const error = (message: string) => {
    tally.errors += 1;
    if (tally.errorSamples.length < 3) tally.errorSamples.push(`user ${plan.id}: ${message}`);
  };
  // Timed here, so each call's latency can be set beside its time inside the VMS.
  const timed = async (into: Timing[], work: () => Promise<Answer>, batchId?: string) => {
    const start = performance.now();
    const answer = await work();
    const ms = performance.now() - start;
    if (start >= plan.measureFrom) {
      into.push({ batchId: batchId ?? batchIdOf(answer), ms, replayed: answer.replayed });
    }
    return answer;
  };
  for (let batch = 1; performance.now() < plan.endAt; batch += 1) {
    const items = Array.from({ length: plan.items }, (_, i) =>
      requisitionInsert({ clientinternalreq: `${plan.tag}-${plan.id}-${batch}-${i + 1}` }),
    );
    const body = JSON.stringify(items);
    const key = randomUUID();
    const measured = performance.now() >= plan.measureFrom;
    let first: Answer;
    let second: Answer | null = null;
    try {
      if (!plan.retrier) {
        first = await timed(tally.sends, () => plan.route.send(body, key));
      } else if (batch % 2 === 1) {
        // The browser gave up waiting and sent again while the first is still on its way.
        const sending = timed(tally.sends, () => plan.route.send(body, key));
        await sleep(Math.random() * 20);
        const resending = timed(tally.resends, () => plan.retryRoute.send(body, key));
        [first, second] = await Promise.all([sending, resending]);
      } else {
        // The answer was lost on the way back (a dropped connection): the same send again.
        first = await timed(tally.sends, () => plan.route.send(body, key));
        second = await timed(tally.resends, () => plan.retryRoute.send(body, key));
      }
    } catch (cause) {
      error(`send failed: ${String(cause)}`);
      continue;
    }
    const batchId = batchIdOf(first);
    if (batchId === null) {
      error(`send answered ${first.status}: ${first.text.slice(0, 200)}`);
      continue;
    }
    if (second) {
      tally.retries += 1;
      // Either may be the one that went on to the VMS: the resend can arrive first.
      if (first.replayed || second.replayed) tally.replayed += 1;
      const again = batchIdOf(second);
      // A resend answered with another batch id is a second copy made upstream (the budget
      // counts those at the VMS itself); an error answer to a resend is an error.
      if (again === null) error(`resend answered ${second.status}: ${second.text.slice(0, 200)}`);
      else if (again !== batchId) tally.otherBatchId += 1;
    }
    tally.batches += 1;
    tally.items += plan.items;
    if (measured) tally.measuredBatches += 1;

    const sentAt = performance.now();
    for (let polls = 0; ; polls += 1) {
      let answer: Answer;
      try {
        answer = await timed(tally.polls, () => plan.route.results(batchId), batchId);
      } catch (cause) {
        error(`results failed: ${String(cause)}`);
        break;
      }
      if (answer.status !== 200) {
        error(`results answered ${answer.status}: ${answer.text.slice(0, 200)}`);
        break;
      }
      const rows = JSON.parse(answer.text) as { Status?: string; ErrorMessage?: string }[];
      if (rows.length > 0 && rows.every((row) => row.Status !== 'Pending')) {
        const failed = rows.filter((row) => row.Status !== 'Success');
        tally.itemsNotSuccess += failed.length;
        if (failed.length > 0 && tally.notSuccessSamples.length < 2) {
          tally.notSuccessSamples.push(`user ${plan.id}: ${JSON.stringify(failed[0])}`);
        }
        break;
      }
      if (performance.now() - sentAt > plan.settleTimeoutMs) {
        error(`batch ${batchId} still Pending after ${plan.settleTimeoutMs} ms`);
        break;
      }
      const wait = nextPollDelay(undefined, polls + 1);
      await sleep(wait === false ? 0 : wait);
    }
  }
}
