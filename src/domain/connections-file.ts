import { z } from 'zod';
import { datePatternSchema, patternShape } from './date-patterns';
import { blankMaximumBillRates, clockSkewLimitMs } from './settings';
import { requisitionFilterOperators } from './vms-contract';
import { listFieldNamings, profileDatesSchema, profilePresetNames } from './vms-profile';

/**
 * The connections file (`VMS_CONNECTIONS`): the named VMS connections one deployment holds side
 * by side (the sandbox, a UAT environment, production). This module is its shape and the reading
 * of that shape: every problem as one line naming the connection and the key, all of them at
 * once. It knows no environment and no file system; the server resolves the environment
 * variables a connection names and the profile files it points at (src/server/connections/connections.ts).
 * The JSON Schema published at docs/connections.schema.json is generated from
 * `connectionsFileSchema` below, so an editor completes and checks the file by the same rules.
 */

/** What a missing key or a value of the wrong type is told, as "… is required (what)" / "… must be what". */
function expects(what: string) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined ? `is required (${what})` : `must be ${what}`,
  };
}

function wholeNumber(min: number, max: number, example: number) {
  const what =
    max === Number.MAX_SAFE_INTEGER
      ? `a whole number such as ${example}`
      : `a whole number from ${min} to ${max}, such as ${example}`;
  return z
    .number(expects(what))
    .int(`must be ${what}`)
    .min(min, `must be ${what}`)
    .max(max, `must be ${what}`);
}

/**
 * Names are used in URLs and in the journal, and they are what a log line or a message says, so
 * they are lowercase slugs that read the same everywhere; `label` is for people.
 */
export const connectionNamePattern = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const connectionNameRule =
  'a lowercase name of letters, digits and hyphens (40 at most, no hyphen at either end), such as "uat" or "acme-production"';
const connectionName = z
  .string(expects(connectionNameRule))
  .regex(connectionNamePattern, `must be ${connectionNameRule}`);

/** An environment variable's name as a shell and a .env file write it. */
const envVariablePattern = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
function envReference(example: string, holds: string) {
  // The message never repeats the value: someone who wrote the credential itself here must not
  // find it again in the log that refuses it.
  return z
    .string(expects(`the name of the environment variable that holds ${holds}, such as ${example}`))
    .regex(
      envVariablePattern,
      `must be the name of an environment variable (letters, digits and _), such as ${example}; ${holds} goes in that variable, never in this file`,
    );
}

const baseUrlExample = 'https://uat.vms.example.com/api/';
const baseUrl = z
  .string(expects(`the VMS's http(s) address, such as "${baseUrlExample}"`))
  .superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (url && (url.username || url.password)) {
      // Never echo the value: it holds a password. Credentials are named by apiKeyEnv/apiSecretEnv.
      ctx.addIssue({
        code: 'custom',
        message: `must not contain a user name or password (user:password@host): remove them (the VMS is signed with the key and secret apiKeyEnv and apiSecretEnv name), e.g. "${url.protocol}//${url.host}${url.pathname}"`,
      });
    } else if (
      !url ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      url.search ||
      url.hash
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an http(s) address without a query, such as "${baseUrlExample}"`,
      });
    }
  });

/** The base URL as the proxy resolves operations under it: always ending in `/`. */
export function normalizedBaseUrl(value: string): string {
  const href = new URL(value).href;
  return href.endsWith('/') ? href : `${href}/`;
}

const label = z
  .string(expects('the name people see, such as "Acme UAT"'))
  .trim()
  .min(1, 'must be the name people see, such as "Acme UAT"')
  .max(60, 'must be 60 characters at most');

/**
 * The list keys an editor is told of. Their shape only: the profile's reader checks each value
 * and names the key in its message, which a mismatch here would hide behind the union's.
 */
const profileListKeys = z
  .looseObject({
    fieldNames: z
      .string()
      .optional()
      .meta({
        description:
          'How records name their fields: PascalCase (TitleRole), camelCase (titleRole) or payload (titlerole).',
        examples: [...listFieldNamings],
      }),
    total: z
      .string()
      .optional()
      .meta({
        description:
          "A JSON Pointer to the count of all the client's records in the list's answer, such as /meta/total. Optional.",
        examples: ['/meta/total'],
      }),
    fullReadEvery: z
      .looseObject({
        refreshes: z.number().optional().meta({ description: 'Refreshes (1 to 1,000).' }),
        minutes: z.number().optional().meta({ description: 'Minutes (1 to 1,440).' }),
      })
      .optional()
      .meta({
        description:
          'How often the browser reads the list whole: after so many refreshes or minutes, whichever comes first. Default: {"refreshes": 20, "minutes": 30}.',
      }),
    filter: z
      .looseObject({
        operators: z
          .looseObject(
            Object.fromEntries(
              requisitionFilterOperators.map(({ value }) => [value, z.string().optional()]),
            ),
          )
          .optional()
          .meta({
            description:
              'The VMS\'s word for each filter operator, such as {"=": "eq", ">": "gt", ">=": "ge", "<": "lt", "<=": "le"}. Default: the symbols.',
          }),
      })
      .optional(),
  })
  .optional()
  .meta({ description: 'How the VMS lists requisitions (docs/configuration.md, "VMS profiles").' });

/**
 * The signature's timestamp form, the one signature key whose values are open-ended (a pattern);
 * its shape only, as for the list keys: the profile's reader checks it and names the key.
 */
const profileSignatureKeys = z
  .looseObject({
    timestamp: z
      .looseObject({
        form: z
          .string()
          .optional()
          .meta({
            description:
              'How the signed timestamp is written: unix-seconds, unix-milliseconds, iso-8601, or a date-time pattern (YYYY, MM, M, DD, D, HH, H, hh or h with A, mm, ss, SSS, separators, letters in [brackets]) written in UTC. Default: unix-seconds.',
            pattern: patternShape.source,
            examples: [
              'unix-seconds',
              'unix-milliseconds',
              'iso-8601',
              'YYYYMMDDHHmmss',
              'YYYY-MM-DD HH:mm:ss',
            ],
          }),
      })
      .optional(),
  })
  .optional()
  .meta({
    description:
      'How each call is signed: hash, order, timestamp, encoding, keyHeader, signatureHeader (docs/configuration.md, "VMS profiles"; npm run doctor -- find-recipe finds it from one example).',
  });

const profileRule = `a preset's name (${profilePresetNames.join(', ')}), the path of a profile file ending in .json (relative to this file), or a profile object such as {"preset": "vectorvms", …}`;
const profileSetting = z
  .union(
    [
      z.enum(profilePresetNames).meta({ description: 'A profile preset.' }),
      z
        .string()
        .regex(/\.json$/, {
          error: (issue) =>
            `must be ${profileRule}; "${String(issue.input)}" is neither a preset nor a .json file`,
        })
        .meta({
          description:
            'The path of a profile JSON file, relative to the connections file (docs/configuration.md, "VMS profiles").',
        }),
      z
        .looseObject({
          preset: z
            .enum(profilePresetNames)
            .optional()
            .meta({ description: 'The preset this profile starts from (default sandbox).' }),
          $evidence: z.record(z.string(), z.string()).optional().meta({
            description:
              'How a drafted profile proved each key, or that it is a guess (npm run doctor -- draft-profile); ignored when the profile is read.',
          }),
          dates: profileDatesSchema(false).partial().optional().meta({
            description:
              'How this VMS writes dates: patterns of YYYY, MM, M, DD, D, HH, H, hh or h with A, mm, ss, SSS and separators (letters in [brackets]), or iso-8601, unix-seconds, unix-milliseconds (docs/configuration.md, "VMS profiles").',
          }),
          list: profileListKeys,
          signature: profileSignatureKeys,
        })
        .meta({
          description:
            'A profile written out: the preset it starts from and only the keys that differ (docs/configuration.md, "VMS profiles").',
        }),
    ],
    { error: `must be ${profileRule}` },
  )
  .meta({
    description:
      'How this VMS does what the interface leaves open (paths, answers, status words, dates, signature). Default: sandbox.',
  });

const dateFormat = datePatternSchema('date').meta({
  description:
    "Outbound DATE pattern of the preset the profile starts from (a profile's own dates win), such as YYYY-MM-DD, MM/DD/YYYY or DD.MM.YYYY. Default: YYYY-MM-DD.",
});

const MB = 1024 * 1024;

export const connectionLimitsSchema = z
  .strictObject({
    maxBatch: wholeNumber(1, 100_000, 500)
      .optional()
      .meta({ description: 'Most items in one POST body. Default 500.' }),
    timeoutMs: wholeNumber(1, 600_000, 30_000)
      .optional()
      .meta({ description: "How long to wait for the VMS's answer (ms). Default 30000." }),
    lateAnswerMs: wholeNumber(1, 24 * 60 * 60 * 1000, 600_000)
      .optional()
      .meta({
        description:
          "How long a batch's answer is still awaited after the browser was told it is late (ms); not shorter than timeoutMs. Default 600000.",
      }),
    bodyLimitBytes: wholeNumber(1024, 1024 * MB, 5 * MB)
      .optional()
      .meta({
        description:
          'Largest request body for this connection (bytes); at most the portal-wide VMS_BODY_LIMIT_BYTES. Default: that.',
      }),
  })
  .meta({ description: 'Limits of this connection; each has the default of its VMS_* variable.' });

const clientOrgSchema = z
  .strictObject({
    id: wholeNumber(1, Number.MAX_SAFE_INTEGER, 1001).meta({
      description: 'The client org id, such as 1001.',
    }),
    name: z
      .string(expects('the name people know the org by, such as "Northwind Health"'))
      .trim()
      .min(1, 'must be the name people know the org by, such as "Northwind Health"')
      .max(200, 'must be 200 characters at most')
      .optional()
      .meta({ description: 'The name people know it by (shown as "1001 · Northwind Health").' }),
  })
  .meta({ description: 'A client org this connection may act for.' });

const common = {
  name: connectionName.meta({
    description:
      'The connection\'s name: a lowercase slug used in URLs and logs, such as "uat". Unique in the file.',
  }),
  label: label
    .optional()
    .meta({ description: 'What people see, such as "Acme UAT". Default: the name.' }),
  profile: profileSetting.optional(),
  dateFormat: dateFormat.optional(),
  limits: connectionLimitsSchema.optional(),
};

export const sandboxConnectionSchema = z
  .strictObject({
    ...common,
    sandbox: z
      .literal(true, { error: 'must be true for the embedded sandbox' })
      .meta({ description: 'This connection is the embedded sandbox VMS (at most one).' }),
    processingDelayMs: wholeNumber(0, 60_000, 20)
      .optional()
      .meta({ description: "The sandbox's pause before each batch item (ms). Default 20." }),
    clockSkewMs: wholeNumber(-clockSkewLimitMs, clockSkewLimitMs, 600_000).optional().meta({
      description:
        "Puts the sandbox's clock this many ms ahead (negative: behind), to try a clock check. Default 0.",
    }),
    blankMaximumBillRate: z
      .enum(blankMaximumBillRates, { error: `must be one of ${blankMaximumBillRates.join(', ')}` })
      .optional()
      .meta({
        description:
          "What a requisition's blank maximumbillrate means for a candidate's bill rate: no-limit, or hourly-high (read as 0). Default no-limit.",
      }),
    production: z
      .literal(false, { error: 'must be false: the sandbox is never production' })
      .optional()
      .meta({ description: 'Always false for the sandbox.' }),
  })
  .meta({
    title: 'Sandbox connection',
    description:
      'The embedded sandbox VMS, started by the portal; it signs with its own demo key and knows its demo orgs.',
  });

export const remoteConnectionSchema = z
  .strictObject({
    ...common,
    sandbox: z
      .literal(false, { error: 'must be true (the embedded sandbox) or left out' })
      .optional()
      .meta({ description: 'Leave out (or false) for a remote VMS.' }),
    baseUrl: baseUrl.meta({
      description: `The VMS's address, operations are resolved under it, such as "${baseUrlExample}". No user name or password in it.`,
    }),
    apiKeyEnv: envReference('UAT_VMS_API_KEY', 'the API key').meta({
      description:
        'The name of the environment variable holding the API key. The key itself is never written in this file.',
    }),
    apiSecretEnv: envReference('UAT_VMS_API_SECRET', 'the API secret').meta({
      description:
        'The name of the environment variable holding the API secret. The secret itself is never written in this file.',
    }),
    clientOrgs: z
      .array(clientOrgSchema, expects('a list of client orgs such as [{"id": 1001}]'))
      .min(
        1,
        'must list at least one client org, such as [{"id": 1001, "name": "Northwind Health"}]',
      )
      .meta({ description: 'The client orgs this connection may act for.' }),
    vendorOrgId: wholeNumber(1, Number.MAX_SAFE_INTEGER, 9001).meta({
      description: 'The one vendor org this connection acts as, such as 9001.',
    }),
    production: z.boolean(expects('true or false: whether calls reach real people')).meta({
      description:
        'Whether this VMS is production (calls reach real people). Required, so that nobody forgets to say.',
    }),
  })
  .meta({ title: 'Remote connection', description: 'A VMS reached over HTTP(S).' });

export const connectionsSchemaId = 'urn:vms-submission-portal:connections';

/** The whole file, as the published JSON Schema describes it. */
export const connectionsFileSchema = z
  .strictObject({
    $schema: z
      .string()
      .optional()
      .meta({ description: "This schema's location, for editors: docs/connections.schema.json." }),
    connections: z
      .array(z.union([sandboxConnectionSchema, remoteConnectionSchema]))
      .min(1)
      .meta({ description: 'The named connections, each a sandbox or a remote VMS.' }),
    default: connectionName.optional().meta({
      description: 'The name of the connection people start with. Required when there are several.',
    }),
  })
  .meta({
    $id: connectionsSchemaId,
    title: 'VMS submission portal: connections',
    description:
      'The VMS connections one portal deployment holds (VMS_CONNECTIONS). Keys and secrets only by the names of environment variables. docs/configuration.md, "Connections".',
  });

export type SandboxConnectionEntry = z.output<typeof sandboxConnectionSchema>;
export type RemoteConnectionEntry = z.output<typeof remoteConnectionSchema>;
export type ConnectionEntry = SandboxConnectionEntry | RemoteConnectionEntry;

/** The published JSON Schema: docs/connections.schema.json is this, as `npm run docs:connections-schema` writes it. */
export function connectionsJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(connectionsFileSchema, { target: 'draft-7', io: 'input' });
}

// ---------------------------------------------------------------------------------------------
// Reading a file's contents

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
