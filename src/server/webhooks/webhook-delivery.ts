import { Agent, errors, request } from 'undici';
import {
  checkWebhookUrl,
  guardedLookup,
  refusedAddressCode,
  type AllowedHosts,
} from './webhook-address';
import { signatureHeader, signDelivery } from './webhook-signature';

/** One delivery's end, as the delivery log keeps it. */
export type DeliveryResult =
  | { delivered: true; status: number; ms: number }
  | {
      delivered: false;
      /** The receiver's status when it answered (a 3xx, 4xx or 5xx), else null. */
      status: number | null;
      ms: number;
      /** For the admins' delivery log: what happened, in their words. */
      reason: string;
      /** Whether trying again later may work (a 5xx, a timeout, a refused connection), or not (a refused address). */
      retry: boolean;
    };

export interface WebhookSenderOptions {
  allowed: AllowedHosts;
  /** Connect, headers and body, each (default 10 s): a receiver that hangs does not hold a worker. */
  timeoutMs?: number;
  now?: () => number;
}

/** Of the receiver's answer, only this much is read (and thrown away): its status is what counts. */
const answerBytesRead = 64 * 1024;

/**
 * Sends webhook deliveries (decision 051): a JSON body, signed, to an address checked again as it
 * is called. Redirects are not followed (a 3xx is a failed delivery: following one would let a
 * public receiver point the portal at an internal address); a 2xx is delivered; anything else
 * fails, and says whether a retry may help.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: WebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.agent = new Agent({
      connect: { timeout: this.timeoutMs, lookup: guardedLookup(options.allowed) },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // A delivery is sent once per attempt: undici never repeats it behind the retry schedule.
      pipelining: 1,
    });
  }

  /** Sends `body` once; `headers` are added (a delivery's stable id), never over the signature. */
  async send(
    address: string,
    secret: string,
    body: string,
    headers: Record<string, string> = {},
  ): Promise<DeliveryResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    const checked = checkWebhookUrl(address, this.options.allowed);
    if ('problem' in checked) {
      return { delivered: false, status: null, ms: 0, reason: checked.problem, retry: false };
    }
    const timestamp = Math.floor(this.now() / 1000);
    try {
      const answer = await request(checked.url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'user-agent': 'vms-portal-webhook',
          [signatureHeader]: signDelivery(secret, timestamp, body),
        },
        body,
        dispatcher: this.agent,
      });
      await drain(answer.body);
      const status = answer.statusCode;
      if (status >= 200 && status < 300) return { delivered: true, status, ms: ms() };
      if (status >= 300 && status < 400) {
        return {
          delivered: false,
          status,
          ms: ms(),
          reason: `The receiver answered ${status} (a redirect to ${answer.headers.location ?? 'nowhere'}); redirects are not followed: set the webhook to the final address.`,
          retry: false,
        };
      }
      return {
        delivered: false,
        status,
        ms: ms(),
        reason: `The receiver answered ${status}.`,
        // A receiver that is down or busy may take it later; a 4xx will say the same again,
        // except 408 and 429, which are about timing.
        retry: status >= 500 || status === 408 || status === 429,
      };
    } catch (error) {
      return { delivered: false, status: null, ms: ms(), ...failure(error, this.timeoutMs) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

async function drain(body: AsyncIterable<unknown> & { destroy(): unknown }): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += (chunk as Buffer).length;
    if (read > answerBytesRead) {
      body.destroy();
      return;
    }
  }
}

function failure(error: unknown, timeoutMs: number): { reason: string; retry: boolean } {
  const code = errorCode(error);
  if (code === refusedAddressCode) {
    return { reason: error instanceof Error ? error.message : String(error), retry: false };
  }
  if (
    error instanceof errors.ConnectTimeoutError ||
    error instanceof errors.HeadersTimeoutError ||
    error instanceof errors.BodyTimeoutError
  ) {
    return { reason: `The receiver did not answer within ${timeoutMs / 1000} s.`, retry: true };
  }
  return {
    reason: `The receiver could not be reached (${code ?? (error instanceof Error ? error.message : String(error))}).`,
    retry: true,
  };
}

/** The error's own code, or its cause's (undici wraps the socket's error). */
function errorCode(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 4; depth += 1) {
    const code = Reflect.get(at, 'code');
    if (typeof code === 'string' && !code.startsWith('UND_ERR')) return code;
    at = at.cause;
  }
  return undefined;
}
