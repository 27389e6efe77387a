import { z } from 'zod';
import type { ConnectionEntry } from './connection-entries';
import {
  expects,
  connectionNamePattern,
  baseUrlExample,
  normalizedBaseUrl,
  connectionLimitsSchema,
  clientOrgSchema,
  sandboxConnectionSchema,
  remoteConnectionSchema,
  connectionsFileSchema,
} from './connection-entries';
import { isPlainObject } from './wire-check';

/**
 * The connections file (`VMS_CONNECTIONS`) read: every problem as one line naming the connection
 * and the key, all of them at once, and credentials written into the file taken out with a word
 * on where they belong. The shape it reads is in connection-entries.ts; the names the server
 * reads the file with are given here too.
 */
export { normalizedBaseUrl, type ConnectionEntry } from './connection-entries';

/** `clientOrgs[0].id`, as people read a key in JSON. */
function keyPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(
        current + 1,
        (row[j - 1] ?? 0) + 1,
        previous + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}

/** "unknown key "lable" (did you mean "label"?)" or, with nothing close, the keys it takes. */
function unknownKey(key: string, known: readonly string[], what: string): string {
  const close = known.find(
    (name) => name.toLowerCase() === key.toLowerCase() || editDistance(name, key) <= 2,
  );
  return close
    ? `unknown key "${key}" (did you mean "${close}"?)`
    : `unknown key "${key}": ${what} takes ${known.join(', ')}`;
}

/**
 * Key names that say "credential". A key or secret in the file would be copied wherever the file
 * goes (a repository, a ticket, a backup) and read by whoever can read it; in an environment
 * variable it stays with the process, where the platform's own secret store can put it.
 */
const credentialKeyPattern = /key|secret|passw|pwd|token|credential|auth|bearer/i;

/** A value that looks like a generated key or secret: long, unbroken, letters and digits. */
export function looksLikeCredential(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value.length >= 16 &&
    /^[A-Za-z0-9+/=_.~:-]+$/.test(value) &&
    /[A-Za-z]/.test(value) &&
    /\d/.test(value) &&
    !value.includes('://') &&
    !/\.json$/i.test(value)
  );
}

/** The variable a connection's credential could live in, named after the connection. */
export function suggestedVariable(connection: string | null, which: 'key' | 'secret'): string {
  const prefix =
    connection !== null && connectionNamePattern.test(connection)
      ? `${connection.toUpperCase().replace(/-/g, '_')}_`
      : '';
  return `${prefix}VMS_API_${which === 'key' ? 'KEY' : 'SECRET'}`;
}

/**
 * Unknown keys that hold a credential, by their name or by the look of their value; each gets a
 * line saying where it belongs instead, and is taken out of `object` so that it is not also
 * reported as merely unknown. The value is never repeated.
 */
function takeOutCredentials(
  object: Record<string, unknown>,
  known: readonly string[],
  where: string,
  connection: { name: string | null; sandbox: boolean } | null,
): { rest: Record<string, unknown>; problems: string[] } {
  const rest: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (known.includes(key) || !(credentialKeyPattern.test(key) || looksLikeCredential(value))) {
      rest[key] = value;
      continue;
    }
    const which = /secret|passw|pwd|token|private/i.test(key) ? 'secret' : 'key';
    const reference = which === 'secret' ? 'apiSecretEnv' : 'apiKeyEnv';
    const variable = suggestedVariable(connection?.name ?? null, which);
    const what = credentialKeyPattern.test(key)
      ? `"${key}" holds a credential, and the connections file must not`
      : `the value of unknown key "${key}" looks like a credential, and the connections file must not hold one`;
    const advice = connection?.sandbox
      ? 'the sandbox signs with its own demo key, so remove it'
      : `move it into an environment variable (such as ${variable}) and name that variable with "${reference}": "${variable}"${connection ? '' : ' in the connection that uses it'}`;
    problems.push(`${where}${what}: ${advice}`);
  }
  return { rest, problems };
}

/** Zod's issues as lines, each naming its key; unknown keys get "did you mean". */
function issueLines(
  error: z.ZodError,
  knownAt: (path: readonly PropertyKey[]) => { keys: readonly string[]; what: string },
): string[] {
  return error.issues.flatMap((issue) => {
    const where = keyPath(issue.path);
    const prefix = where === '' ? '' : `${where}: `;
    if (issue.code === 'unrecognized_keys') {
      const { keys, what } = knownAt(issue.path);
      return issue.keys.map((key) => `${prefix}${unknownKey(key, keys, what)}`);
    }
    const message =
      issue.code === 'invalid_type' && !/^(is|must)\b/.test(issue.message)
        ? issue.input === undefined
          ? 'is required'
          : `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`
        : issue.message;
    return [where === '' ? message : `${where} ${message}`];
  });
}

const fileKeys = Object.keys(connectionsFileSchema.shape);
const sandboxKeys = Object.keys(sandboxConnectionSchema.shape);
const remoteKeys = Object.keys(remoteConnectionSchema.shape);
const limitKeys = Object.keys(connectionLimitsSchema.shape);
const clientOrgKeys = Object.keys(clientOrgSchema.shape);

/** How one connection is named in a message: by its name when it has a readable one. */
function connectionWhere(entry: unknown, index: number): { where: string; name: string | null } {
  const name = isPlainObject(entry) ? entry.name : undefined;
  return typeof name === 'string' && name.length > 0 && name.length <= 60 && !/["\n]/.test(name)
    ? { where: `connection "${name}": `, name }
    : { where: `connections[${index}]: `, name: null };
}

function readConnection(
  entry: unknown,
  index: number,
): { entry: ConnectionEntry } | { problems: string[] } {
  const { where, name } = connectionWhere(entry, index);
  if (!isPlainObject(entry)) {
    return {
      problems: [
        `${where}must be an object such as {"name": "uat", "baseUrl": "${baseUrlExample}", …}`,
      ],
    };
  }
  const sandbox = entry.sandbox === true;
  const schema = sandbox ? sandboxConnectionSchema : remoteConnectionSchema;
  const keys = sandbox ? sandboxKeys : remoteKeys;
  const kind = sandbox ? 'a sandbox connection' : 'a remote connection';
  const problems: string[] = [];
  const top = takeOutCredentials(entry, keys, where, { name, sandbox });
  problems.push(...top.problems);
  const cleaned: Record<string, unknown> = { ...top.rest };
  if (isPlainObject(cleaned.limits)) {
    const limits = takeOutCredentials(cleaned.limits, limitKeys, `${where}limits: `, {
      name,
      sandbox,
    });
    problems.push(...limits.problems);
    cleaned.limits = limits.rest;
  }
  if (Array.isArray(cleaned.clientOrgs)) {
    cleaned.clientOrgs = cleaned.clientOrgs.map((org: unknown, orgIndex) => {
      if (!isPlainObject(org)) return org;
      const taken = takeOutCredentials(org, clientOrgKeys, `${where}clientOrgs[${orgIndex}]: `, {
        name,
        sandbox,
      });
      problems.push(...taken.problems);
      return taken.rest;
    });
  }
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const knownAt = (path: readonly PropertyKey[]) =>
      path[0] === 'limits'
        ? { keys: limitKeys, what: 'limits' }
        : path[0] === 'clientOrgs'
          ? { keys: clientOrgKeys, what: 'a client org' }
          : { keys, what: kind };
    problems.push(...issueLines(parsed.error, knownAt).map((line) => `${where}${line}`));
  }
  if (problems.length > 0 || !parsed.success) return { problems };
  const connection = parsed.data;
  if ('clientOrgs' in connection) {
    const seen = new Set<number>();
    connection.clientOrgs.forEach((org, orgIndex) => {
      if (seen.has(org.id)) {
        problems.push(
          `${where}clientOrgs[${orgIndex}].id ${org.id} is listed twice: list each org once`,
        );
      }
      seen.add(org.id);
    });
  }
  const { timeoutMs, lateAnswerMs } = connection.limits ?? {};
  if (timeoutMs !== undefined && lateAnswerMs !== undefined && lateAnswerMs < timeoutMs) {
    problems.push(
      `${where}limits.lateAnswerMs (${lateAnswerMs}) must not be shorter than limits.timeoutMs (${timeoutMs}): it is how long the portal keeps waiting for a batch's answer after telling the browser it is late`,
    );
  }
  return problems.length > 0 ? { problems } : { entry: connection };
}

export type ConnectionsFileReading =
  { file: { connections: ConnectionEntry[]; default: string } } | { problems: string[] };

/**
 * Reads a connections file's parsed JSON: each connection by its own shape (`"sandbox": true` or
 * a remote VMS), then what only the whole file can say — names used twice, a default naming no
 * connection, two sandboxes, two names for the same VMS and vendor org. Every problem is one line
 * (without the file's name, which the caller puts first), all of them at once.
 */
export function readConnectionsFile(input: unknown): ConnectionsFileReading {
  if (!isPlainObject(input)) {
    return {
      problems: [
        'must be an object such as {"connections": [{"name": "sandbox", "sandbox": true}]}',
      ],
    };
  }
  const problems: string[] = [];
  const top = takeOutCredentials(input, fileKeys, '', null);
  problems.push(...top.problems);
  const shell = connectionsFileSchema
    .extend({
      connections: z
        .array(z.unknown(), expects('a list of connections'))
        .min(1, 'must list at least one connection'),
    })
    .safeParse(top.rest);
  if (!shell.success) {
    problems.push(
      ...issueLines(shell.error, () => ({ keys: fileKeys, what: 'the connections file' })),
    );
  }
  const raw = Array.isArray(top.rest.connections) ? top.rest.connections : [];
  const entries: ConnectionEntry[] = [];
  raw.forEach((entry, index) => {
    const reading = readConnection(entry, index);
    if ('problems' in reading) problems.push(...reading.problems);
    else entries.push(reading.entry);
  });

  const names = new Map<string, number>();
  for (const entry of entries) names.set(entry.name, (names.get(entry.name) ?? 0) + 1);
  for (const [name, count] of names) {
    if (count > 1) {
      problems.push(
        `connection "${name}": the name is used by ${count} connections: give each its own`,
      );
    }
  }
  const sandboxes = entries.filter((entry) => entry.sandbox === true);
  for (const extra of sandboxes.slice(1)) {
    problems.push(
      `connection "${extra.name}": only one connection may be the embedded sandbox, and "${sandboxes[0]?.name}" is already: remove "sandbox": true from one of them`,
    );
  }
  const destinations = new Map<string, string>();
  for (const entry of entries) {
    if (entry.sandbox === true || !('baseUrl' in entry)) continue;
    const destination = `${normalizedBaseUrl(entry.baseUrl)} as vendor org ${entry.vendorOrgId}`;
    const first = destinations.get(destination);
    if (first !== undefined && first !== entry.name) {
      problems.push(
        `connection "${entry.name}": it sends to the same VMS as connection "${first}" (${destination}); two names for one place would send there twice: keep one of them`,
      );
    } else destinations.set(destination, entry.name);
  }
  const chosen = shell.success ? shell.data.default : undefined;
  if (shell.success && raw.length === entries.length) {
    if (chosen === undefined && entries.length > 1) {
      problems.push(
        `default is required when there are several connections: name the one people start with, such as "${entries[0]?.name}"`,
      );
    } else if (chosen !== undefined && !names.has(chosen)) {
      problems.push(
        `default "${chosen}" names no connection; the connections are ${[...names.keys()].join(', ')}`,
      );
    }
  }
  if (problems.length > 0) return { problems };
  return { file: { connections: entries, default: chosen ?? entries[0]?.name ?? '' } };
}
