import type { JournalBody, JournalEntry } from '@/domain/journal';
import type { VmsOperation } from '@/domain/vms-contract';
import {
  sandboxProfile,
  sandboxSignatureRecipe,
  speaksOwnDialect,
  vmsCallPath,
  type SignatureRecipe,
  type VmsProfile,
} from '@/domain/vms-profile';

/**
 * A recorded call as a request to make again or to show: what "Copy as" writes in each language
 * (cURL, PowerShell, Node fetch) and what the HAR export says was sent. The key, the secret and
 * the signature are never part of it: the journal never holds them, and every rendering makes
 * them where it runs from $VMS_API_KEY and $VMS_API_SECRET.
 */

export interface HeaderLine {
  name: string;
  value: string;
}

/** The signing headers: sent with every call to the VMS, made afresh each time, never recorded. */
export const signingHeaders = { key: 'x-api-key', signature: 'x-signature' } as const;

/** Where each rendering reads the credentials from: the environment, never the command. */
export const credentialVariables = { key: 'VMS_API_KEY', secret: 'VMS_API_SECRET' } as const;

export interface CallRequest {
  method: 'GET' | 'POST';
  url: string;
  /** The headers the proxy sends besides the signing ones, as it sends them; none is secret. */
  headers: HeaderLine[];
  /** The body as kept (a GET has none). */
  body: JournalBody | null;
  /** What to know before sending it again: a body cut short, a secret replaced in it. */
  notes: string[];
  /** How the connection's VMS wants calls signed: each rendering signs by it. */
  recipe: SignatureRecipe;
}

/** The query of the call as forwarded (the org ids as checked), or as received. */
function queryOf(entry: JournalEntry): string {
  const source = entry.url ?? entry.path;
  const at = source.indexOf('?');
  return at < 0 ? '' : source.slice(at);
}

/**
 * The address to send a call to `operation` again: the VMS configured now, with the call's query;
 * for a VMS with its own paths and parameter names (its profile), translated from the call as the
 * portal received it, as the proxy translates it.
 */
export function vmsUrlFor(
  entry: JournalEntry,
  operation: VmsOperation,
  upstreamUrl: string,
  profile: VmsProfile | null = null,
) {
  if (profile !== null && !speaksOwnDialect(profile, sandboxProfile(profile.dates.outbound))) {
    const at = entry.path.indexOf('?');
    return `${upstreamUrl}${vmsCallPath(profile, operation, at < 0 ? '' : entry.path.slice(at))}`;
  }
  return `${upstreamUrl}${operation}${queryOf(entry)}`;
}

/**
 * The call as the proxy sends it to the VMS at `url`: the proxy builds these headers from
 * nothing (vms-proxy.ts, callVms), so they are known without having been recorded; host and
 * content-length are the HTTP client's, and the signing headers are each rendering's to make.
 */
export function vmsRequest(
  entry: JournalEntry,
  url: string,
  recipe: SignatureRecipe = sandboxSignatureRecipe,
): CallRequest {
  const body = entry.method === 'POST' ? entry.requestBody : null;
  const notes: string[] = [];
  if (body?.truncated) {
    notes.push(
      `The journal kept only part of this body (${body.size} bytes, JOURNAL_BODY_LIMIT_KB): this sends that part.`,
    );
  }
  if (body?.redacted)
    notes.push('A secret in this body was replaced by [redacted] in the journal.');
  return {
    method: entry.method === 'POST' ? 'POST' : 'GET',
    url,
    headers: [
      { name: 'accept', value: 'application/json' },
      ...(body === null ? [] : [{ name: 'content-type', value: 'application/json' }]),
    ],
    body,
    notes,
    recipe,
  };
}
