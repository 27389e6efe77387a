import { Agent, request } from 'undici';
import { joinQuery } from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import type { DoctorTarget } from './target';

/** One answer of the VMS to a probe, read in full (up to a limit). */
export interface ProbeAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** This machine's clock when the call was sent and when its headers came back, ms. */
  sentAt: number;
  answeredAt: number;
}

/** More than any list page or error a probe needs to read; the rest is not read. */
const maxAnswerBytes = 2 * 1024 * 1024;

/**
 * The doctor's calls to one VMS, each signed afresh by the target's profile exactly as the proxy
 * signs its calls. Every signature sent is remembered so the report can be cleaned of it.
 */
export class ProbeClient {
  private readonly agent: Agent;
  /** Every signature sent, so that none can reach the report. */
  readonly signatures: string[] = [];

  constructor(
    private readonly target: DoctorTarget,
    private readonly now: () => number = Date.now,
  ) {
    this.agent = new Agent({
      connect: { timeout: Math.min(target.timeoutMs, 10_000) },
      headersTimeout: target.timeoutMs,
      bodyTimeout: target.timeoutMs,
      // One call at a time and no retries: a probe is never sent twice behind the doctor's back.
      pipelining: 1,
    });
  }

  /** `path` is relative to the base URL (a profile path with its query), as the proxy calls it. */
  async call(method: 'GET' | 'POST', path: string, body?: Buffer): Promise<ProbeAnswer> {
    const { profile, apiKey, apiSecret } = this.target;
    const signed = signRequest(profile.signature, {
      apiKey,
      secret: apiSecret,
      now: this.now(),
      ...(body ? { body } : {}),
    });
    const signature = signed.headers[profile.signature.signatureHeader];
    if (signature) this.signatures.push(signature);
    const url = new URL(joinQuery(path, new URLSearchParams(signed.query)), this.target.baseUrl);
    const headers: Record<string, string> = { accept: 'application/json', ...signed.headers };
    if (body) headers['content-type'] = 'application/json';
    const sentAt = this.now();
    const answer = await request(url, {
      method,
      headers,
      body: body ?? null,
      dispatcher: this.agent,
      headersTimeout: this.target.timeoutMs,
      bodyTimeout: this.target.timeoutMs,
    });
    const answeredAt = this.now();
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of answer.body) {
      const bytes = Buffer.from(chunk as Buffer);
      if (length + bytes.length > maxAnswerBytes) {
        chunks.push(bytes.subarray(0, maxAnswerBytes - length));
        answer.body.destroy();
        break;
      }
      length += bytes.length;
      chunks.push(bytes);
    }
    const headersOut: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers)) {
      if (typeof value === 'string') headersOut[name] = value;
      else if (Array.isArray(value)) headersOut[name] = value.join(', ');
    }
    return {
      status: answer.statusCode,
      headers: headersOut,
      text: Buffer.concat(chunks).toString('utf8'),
      sentAt,
      answeredAt,
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

interface Coded {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

const tlsCodes = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
]);

/** The code of a failed call (undici wraps Node's error in `cause`). */
function codeOf(error: unknown): { code: string; message: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const coded = current as Coded;
    if (typeof coded.code === 'string' && coded.code !== 'UND_ERR') {
      return {
        code: coded.code,
        message: typeof coded.message === 'string' ? coded.message : '',
      };
    }
    current = coded.cause;
  }
  return { code: '', message: error instanceof Error ? error.message : String(error) };
}

/** Which layer a call failed at, and what an administrator changes for it. */
export function networkFailure(
  error: unknown,
  target: DoctorTarget,
): { layer: string; finding: string; fix: string } {
  const { code, message } = codeOf(error);
  const url = new URL(target.baseUrl);
  const host = url.hostname;
  const where = `${url.host}`;
  const setting = `the connection's base URL (VMS_BASE_URL for the ${target.name} connection)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return {
      layer: 'DNS',
      finding: `Host name not found: ${host} does not resolve from this machine (DNS, ${code}).`,
      fix: `Check the host name in ${setting} for typos; if it is right, this machine's DNS cannot resolve it: ask your network team to make it resolvable here.`,
    };
  }
  if (code === 'ECONNREFUSED') {
    return {
      layer: 'TCP',
      finding: `Connection refused: nothing accepts connections at ${where} (TCP).`,
      fix: `Check the port in ${setting} and that the VMS is running; a firewall may also refuse the connection.`,
    };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return {
      layer: 'TCP',
      finding: `No route to ${where} from this machine (TCP, ${code}).`,
      fix: `Check ${setting}; if it is right, ask your network team to open the route (firewall, VPN or proxy) from this machine to ${where}.`,
    };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return {
      layer: 'TCP',
      finding: `Timeout: ${where} did not accept a connection in time (TCP).`,
      fix: `A firewall is probably dropping the connection: ask your network team to allow this machine to reach ${where}, and check the port in ${setting}.`,
    };
  }
  if (tlsCodes.has(code) || code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) {
    return {
      layer: 'TLS',
      finding: `TLS certificate problem at ${where}: ${message || code} (${code}).`,
      fix: `Check that the host name in ${setting} is the one on the VMS's certificate; if your organisation inspects TLS traffic, give this machine its CA certificate (NODE_EXTRA_CA_CERTS). Never turn certificate checks off.`,
    };
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return {
      layer: 'HTTP',
      finding: `Timeout: ${where} accepted the connection but sent no HTTP answer within ${target.timeoutMs} ms.`,
      fix: `Check that ${setting} points at the VMS's API (an http:// address for an https port, or the reverse, never answers); if the VMS is just slow, raise VMS_TIMEOUT_MS.`,
    };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPROTO') {
    return {
      layer: 'TLS',
      finding: `The connection to ${where} was closed before any HTTP answer (${code}).`,
      fix: `Check the scheme in ${setting}: http:// to an https port (or the reverse) is closed this way; a proxy or firewall may also be cutting the connection.`,
    };
  }
  return {
    layer: 'HTTP',
    finding: `The call to ${where} failed: ${message || code || 'unknown error'}.`,
    fix: `Check ${setting} and that the VMS is running.`,
  };
}
