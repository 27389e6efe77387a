import { z } from 'zod';

/**
 * One error body shape for the portal server and the sandbox VMS (docs/sandbox.md, "Operations"):
 * `{"error": {"code": "<snake_case>", "message": "<sentence>", "details": [...]}}`.
 * The browser parses it with the same schema, so a message always reaches the user.
 */
export const apiErrorCatalog = {
  malformed_request: 400,
  invalid_body: 400,
  missing_parameter: 400,
  invalid_parameter: 400,
  /** A call that carried both a session cookie and an API token: send one (decision 037). */
  ambiguous_credentials: 400,
  missing_api_key: 401,
  unknown_api_key: 401,
  /** The portal's sign-in: no session, or it ended. */
  unauthenticated: 401,
  /** Sign-in refused: one message whatever was wrong (no user enumeration). */
  invalid_credentials: 401,
  /** An API token that was revoked, has expired, is not known, or whose account is disabled. */
  token_invalid: 401,
  not_authorized: 403,
  /** Signed in, but the role or the org grants do not allow it. */
  forbidden: 403,
  /** A state-changing call from another site, or without this session's x-csrf-token. */
  csrf_failed: 403,
  org_not_permitted: 403,
  /** Signed in, but the account may not use the VMS connection the call names. */
  connection_not_permitted: 403,
  /** An API token used for a call outside its scope (decision 037). */
  token_scope: 403,
  host_not_allowed: 403,
  not_found: 404,
  unknown_batch: 404,
  /** A call names a VMS connection the deployment does not have. */
  unknown_connection: 404,
  idempotency_conflict: 409,
  outcome_unknown: 409,
  /** A per-user record changed on the server since the version the write was based on. */
  version_conflict: 409,
  /** An account with that e-mail address already exists. */
  user_exists: 409,
  /** The change would leave the portal without an enabled admin. */
  last_admin: 409,
  /** The user already has a token of that name that still works. */
  token_exists: 409,
  /** A QA suite of that name already exists (names are unique, without regard to case). */
  suite_exists: 409,
  /** The suite has a run in progress: it cannot be deleted until the run ends. */
  suite_running: 409,
  /** A connection check's test requisition asked for on a production VMS, without force. */
  production_send_refused: 409,
  /** An invite link that is unknown, used or past its 72 hours. */
  invite_invalid: 410,
  body_too_large: 413,
  /** A user's records on the server would pass what one user may keep. */
  quota_exceeded: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  upstream_unreachable: 502,
  /** The VMS answered in a way its profile does not describe (a list that never ends). */
  upstream_unreadable: 502,
  app_not_built: 503,
  store_unavailable: 503,
  /** This portal process is shutting down: a new send is refused, never forwarded. */
  draining: 503,
  upstream_timeout: 504,
} as const;

export type ApiErrorCode = keyof typeof apiErrorCatalog;

export const apiErrorDetailSchema = z
  .object({ field: z.string().optional(), message: z.string() })
  .loose();

export const apiErrorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.array(apiErrorDetailSchema).default([]),
  }),
});

export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
export type ApiErrorDetail = z.infer<typeof apiErrorDetailSchema>;

export function apiErrorBody(
  code: ApiErrorCode,
  message: string,
  details: ApiErrorDetail[] = [],
): ApiErrorBody {
  return { error: { code, message, details } };
}

export function apiErrorStatus(code: ApiErrorCode): number {
  return apiErrorCatalog[code];
}

/**
 * A refusal with one of the catalogue's codes, thrown by the portal server and the sandbox alike;
 * their error handlers turn it into the one error body. `statusCode` is read by Fastify and by
 * plugins (rate-limit) that look for an HTTP status on errors.
 */
export class ApiError extends Error {
  override name = 'ApiError';

  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly details: ApiErrorDetail[] = [],
  ) {
    super(message);
  }

  get statusCode(): number {
    return apiErrorStatus(this.code);
  }

  toBody(): ApiErrorBody {
    return apiErrorBody(this.code, this.message, this.details);
  }
}
