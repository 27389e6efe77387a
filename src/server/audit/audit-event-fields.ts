import type { FastifyRequest } from 'fastify';
import type { AuditEntry } from '@/domain/audit';
import { connectionHeader } from '@/domain/vms-contract';

/*
 * What an audit event says, read from its request and answer: who made the call (a user or an API
 * token's owner), which connection and client org, the batch id a send got, and details kept to
 * identifiers, counts and reasons, never a credential or a body.
 */

/**
 * Detail names that could carry a credential or a body: dropped, whatever their value, should a
 * caller ever pass one. (The callers pass identifiers, counts and reasons; this is a second line.)
 */
const unsafeDetail = /pass(word)?|secret|token|signature|cookie|authori[sz]ation|api_?key|body/i;
const maxText = 200;
const maxList = 100;

/** A text field of an event, cut to size; null when it is not text. */
export function text(value: unknown): string | null {
  return typeof value === 'string' ? value.slice(0, maxText) : null;
}

/** Only identifiers, counts, flags and reasons, cut to size. */
export function cleanDetails(fields: Record<string, unknown>): AuditEntry['details'] {
  const details: AuditEntry['details'] = {};
  for (const [name, value] of Object.entries(fields)) {
    if (unsafeDetail.test(name)) continue;
    if (typeof value === 'string') details[name] = value.slice(0, maxText);
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
      details[name] = value;
    } else if (Array.isArray(value)) {
      details[name] = value
        .slice(0, maxList)
        .filter(
          (item): item is string | number => typeof item === 'string' || typeof item === 'number',
        )
        .map((item) => (typeof item === 'string' ? item.slice(0, maxText) : item));
    }
  }
  return details;
}

/** The query's client org, when it names one (an org refusal says which). */
export function clientOrgOf(request: FastifyRequest): number | null {
  const query = request.query;
  const value =
    typeof query === 'object' && query !== null ? Reflect.get(query, 'Client_Org_Id') : undefined;
  return typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : null;
}

export function connectionOf(request: FastifyRequest): string | null {
  const chosen = request.vmsChannel?.connection.name;
  if (chosen) return chosen;
  // Refused before the proxy settled on a connection: the one the call named.
  const header = request.headers[connectionHeader];
  return typeof header === 'string' && header !== ''
    ? header.trim().toLowerCase().slice(0, 40)
    : null;
}

/**
 * Who made the call: the signed-in user, or the API token's owner, then with `via: "token <name>"`
 * (decision 037). A token refused before it gave a session (revoked, expired) still names its
 * owner.
 */
export function actorOf(request: FastifyRequest | undefined): {
  user: { id: string; email: string | null } | null;
  via: Record<string, string>;
} {
  const token = request?.apiToken ?? null;
  const via = token ? { via: `token ${token.name}` } : {};
  const user = request?.portalSession?.user;
  if (user) return { user, via };
  return { user: token ? { id: token.userId, email: token.email } : null, via };
}
