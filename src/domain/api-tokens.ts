import { z } from 'zod';

/**
 * Personal API tokens (decision 037): a QA engineer's or admin's own credential for CI jobs, sent
 * as `Authorization: Bearer vmsp_…`, limited to a scope and an expiry. The HTTP shapes the portal
 * server answers with and the browser parses. The token itself is in one answer only, the one that
 * made it; the server keeps its SHA-256.
 */

/**
 * What a token may call. `suites`: the suite API and `GET /api/session`, enough to run any suite
 * (a file's too: the portal sends the batches itself); `suites-and-sends`: also the VMS proxy, for
 * a script that sends batches of its own.
 */
export const apiTokenScopes = ['suites', 'suites-and-sends'] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];

export const apiTokenScopeLabels: Record<ApiTokenScope, string> = {
  suites:
    'Suites: run suites, stored or from files (npm run suite), and read their runs (/api/suites, /api/suite-runs)',
  'suites-and-sends':
    'Suites and sends: also send batches of your own through the VMS proxy (/api/vms)',
};

/**
 * Every token starts with this, so that secret scanners and people recognise one in a log, a
 * paste or a commit; the portal looks up nothing that does not have the whole shape.
 */
export const apiTokenPrefix = 'vmsp_';

/** The shape of a token the portal makes: the prefix and 256 random bits, base64url. */
export const apiTokenPattern = /^vmsp_[A-Za-z0-9_-]{43}$/;

/** How long a token lasts, in days, chosen when it is made. */
export const apiTokenExpiry = { choices: [7, 30, 90, 365], default: 30, max: 365 } as const;

export const apiTokenNameMax = 80;

/** `POST /api/tokens`: a token for the signed-in user. */
export const createApiTokenSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the token a name that says where it is used, such as "nightly CI".')
    .max(apiTokenNameMax, `A token's name may have at most ${apiTokenNameMax} characters.`)
    // eslint-disable-next-line no-control-regex -- the characters refused are control characters
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'A token’s name is one line of text.'),
  scope: z.enum(apiTokenScopes, {
    error: `Choose the token's scope: ${apiTokenScopes.join(' or ')}.`,
  }),
  expiresInDays: z
    .number({ error: 'Say in how many days the token expires, such as 30.' })
    .int('Say in how many whole days the token expires.')
    .min(1, 'A token lasts at least one day.')
    .max(
      apiTokenExpiry.max,
      `A token lasts at most ${apiTokenExpiry.max} days; make a new one when it expires.`,
    )
    .default(apiTokenExpiry.default),
});
export type CreateApiToken = z.input<typeof createApiTokenSchema>;

/** A token as lists show it: never the token itself. */
export const apiTokenSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(apiTokenScopes),
  /** Whose it is: the token acts as this user. */
  userId: z.string(),
  email: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** When a call last used it, to the minute; null when never. */
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiTokenSummary = z.infer<typeof apiTokenSummarySchema>;

/** `GET /api/tokens` (the user's own) and `GET /api/tokens/all` (admins: everyone's). */
export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSummarySchema) });

/** `POST /api/tokens` → 201: the token, shown this once. */
export const createdApiTokenSchema = z.object({
  token: apiTokenSummarySchema,
  /** The bearer token itself; the portal cannot show it again. */
  secret: z.string().regex(apiTokenPattern),
});
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

/** Whether a token still works, as of `now`. */
export function apiTokenState(
  token: Pick<ApiTokenSummary, 'expiresAt' | 'revokedAt'>,
  now: number,
): 'active' | 'expired' | 'revoked' {
  if (token.revokedAt !== null) return 'revoked';
  return Date.parse(token.expiresAt) <= now ? 'expired' : 'active';
}
