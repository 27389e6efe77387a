import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may be sent (decision 051). An admin types
 * the address, and the portal then calls it from inside the network it runs in, so an address
 * inside that network would let a portal admin reach what only the server can: the cloud's
 * metadata service, a database's HTTP port, an internal admin page. Only public addresses are
 * called, unless the host is listed in WEBHOOK_ALLOW_HOSTS (a chat server inside the company).
 *
 * The address is judged twice: when it is saved (a literal address at once, a host name by what it
 * resolves to then) and on every delivery, by the address the connection is actually made to
 * (`guardedLookup`), so a name that resolved to a public address when saved and to 127.0.0.1 later
 * is refused then.
 */

/** The setting that lists hosts a webhook may reach although they are not public. */
export const allowHostsSetting = 'WEBHOOK_ALLOW_HOSTS';

/** Host names and addresses (lower case, IPv6 without brackets) a webhook may reach whatever they are. */
export type AllowedHosts = ReadonlySet<string>;

/** WEBHOOK_ALLOW_HOSTS read: host names or addresses, separated by commas; an empty value allows none. */
export function parseAllowedHosts(raw: string | undefined): AllowedHosts | { problem: string } {
  const hosts = new Set<string>();
  for (const entry of (raw ?? '').split(',')) {
    const host = entry
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (host === '') continue;
    if (/[/:@\s]/.test(host) && !ipaddr.IPv6.isValid(host)) {
      return {
        problem: `${allowHostsSetting}: "${entry.trim()}" is not a host name or an address; list hosts only (no scheme, port or path), separated by commas, e.g. 127.0.0.1,chat.internal.example.`,
      };
    }
    hosts.add(host);
  }
  return hosts;
}

/**
 * Why an address may not be called, or null when it is public. Only ordinary public unicast
 * passes: loopback, private, link-local (the metadata services' 169.254.169.254), carrier-grade
 * NAT (another cloud's 100.100.100.200), unique-local IPv6, multicast, documentation and other
 * reserved ranges are all refused; an IPv4 address written as IPv6 (`::ffff:127.0.0.1`) is judged
 * as the IPv4 address it is.
 */
export function addressProblem(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : `${address} is a ${describeRange(range)} address`;
}

function describeRange(range: string): string {
  switch (range) {
    case 'loopback':
      return 'loopback (this machine)';
    case 'private':
    case 'uniqueLocal':
      return 'private network';
    case 'linkLocal':
      return 'link-local (cloud metadata)';
    case 'carrierGradeNat':
      return 'shared network (carrier-grade NAT)';
    case 'unspecified':
      return 'unspecified';
    default:
      return `non-public (${range})`;
  }
}

export type WebhookUrl = { url: URL } | { problem: string };

/**
 * A webhook address as typed, checked before it is saved or called: an http or https URL with a
 * host, no user name or password in it, and, for an address written as numbers, a public one.
 * `http://2130706433/` and `http://0x7f.1/` are 127.0.0.1: the URL parser reads them so, and
 * they are judged as read.
 */
export function checkWebhookUrl(raw: string, allowed: AllowedHosts): WebhookUrl {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return {
      problem: `"${raw.trim()}" is not a web address; enter one like https://hooks.example.com/portal.`,
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      problem: `A webhook address starts with https:// (or http://), not ${url.protocol}//.`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      problem:
        'A webhook address may not hold a user name or password; the portal signs each delivery instead (X-Portal-Signature).',
    };
  }
  const host = hostOf(url);
  if (allowed.has(host) || !ipaddr.isValid(host)) return { url };
  const problem = addressProblem(host);
  return problem === null ? { url } : { problem: refusal(host, problem) };
}

/** The URL's host as the allow list holds it: lower case, IPv6 without brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

function refusal(host: string, problem: string): string {
  return `The webhook's host ${host} cannot be called: ${problem}. Webhooks go to public addresses only; an administrator can allow this host with ${allowHostsSetting}.`;
}

/** The code of the error a refused connection fails with. */
export const refusedAddressCode = 'EWEBHOOKADDRESS';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the webhooks' connections: resolves as Node does, then refuses the connection when
 * any address the name has is not public, unless the name is allowed. Node does not call `lookup`
 * for an address written as numbers: checkWebhookUrl judges those.
 */
export function guardedLookup(allowed: AllowedHosts) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, []);
        return;
      }
      if (!allowed.has(hostname.toLowerCase())) {
        for (const { address } of addresses) {
          const problem = addressProblem(address);
          if (problem !== null) {
            const refused: NodeJS.ErrnoException = new Error(
              refusal(hostname, `it resolves to ${problem}`),
            );
            refused.code = refusedAddressCode;
            callback(refused, []);
            return;
          }
        }
      }
      const [first] = addresses;
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else
        callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
    });
  };
}

/**
 * Whether a host name resolves to public addresses only (or is allowed): asked when a webhook is
 * saved, so an admin hears at once that an internal name will be refused. Null when it may be
 * called; else the reason.
 */
export function hostNameProblem(url: URL, allowed: AllowedHosts): Promise<string | null> {
  const host = hostOf(url);
  if (allowed.has(host) || ipaddr.isValid(host)) return Promise.resolve(null);
  return new Promise((resolve) => {
    guardedLookup(allowed)(host, { all: true }, (error) => {
      if (error === null) resolve(null);
      else if (error.code === refusedAddressCode) resolve(error.message);
      else
        resolve(
          `The webhook's host ${host} could not be found (${error.code ?? error.message}); check the address.`,
        );
    });
  });
}
