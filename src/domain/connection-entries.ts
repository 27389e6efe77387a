import { z } from 'zod';
import { datePatternSchema, patternShape } from './date-patterns';
import { blankMaximumBillRates, clockSkewLimitMs } from './settings';
import { requisitionFilterOperators } from './vms-contract';
import { listFieldNamings, profileDatesSchema, profilePresetNames } from './vms-profile';

/**
 * The connections file (`VMS_CONNECTIONS`): the named VMS connections one deployment holds side
 * by side (the sandbox, a UAT environment, production). This module is its shape; connections-file.ts
 * reads a file against it. It knows no environment and no file system; the server resolves the environment
 * variables a connection names and the profile files it points at (src/server/connections/connections.ts).
 * The JSON Schema published at docs/connections.schema.json is generated from
 * `connectionsFileSchema` below, so an editor completes and checks the file by the same rules.
 */

/** What a missing key or a value of the wrong type is told, as "… is required (what)" / "… must be what". */
export function expects(what: string) {
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

export const baseUrlExample = 'https://uat.vms.example.com/api/';

/**
 * What is wrong with a VMS's base address, for the connections file and VMS_BASE_URL alike: a
 * user name or password in it (`withoutThem` is the address to suggest instead, so a message never
 * echoes the password), or not an http(s) address without a query. Undefined when it is fine.
 */
export function baseUrlProblem(
  value: string,
): { problem: 'credentials'; withoutThem: string } | { problem: 'shape' } | undefined {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url && (url.username || url.password))
    return { problem: 'credentials', withoutThem: `${url.protocol}//${url.host}${url.pathname}` };
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    return { problem: 'shape' };
  return undefined;
}

const baseUrl = z
  .string(expects(`the VMS's http(s) address, such as "${baseUrlExample}"`))
  .superRefine((value, ctx) => {
    const found = baseUrlProblem(value);
    if (found?.problem === 'credentials') {
      // Credentials are named by apiKeyEnv/apiSecretEnv.
      ctx.addIssue({
        code: 'custom',
        message: `must not contain a user name or password (user:password@host): remove them (the VMS is signed with the key and secret apiKeyEnv and apiSecretEnv name), e.g. "${found.withoutThem}"`,
      });
    } else if (found) {
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

export const clientOrgSchema = z
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
