import { z } from 'zod';
import { oneOf, unsetWhenBlank } from './settings';
import { vmsOperations, type VmsOperation } from './vms-contract';

/**
 * The call journal's HTTP API (docs/decisions/025-call-journal.md): every call through
 * the signing proxy, as the inspector lists, opens, searches and exports it. The portal server
 * answers with these shapes and the browser parses them with the same schemas. Bodies are text
 * here; the key, the secret and signatures are never part of any of it.
 */

/** Sent by the browser on a proxied call that re-sends a recorded one: the original's id. */
export const replayOfHeader = 'x-portal-replay-of';
/** Sent as `1` by the browser on a send made without its local checks ("Send without checks"). */
export const uncheckedHeader = 'x-portal-unchecked';

/**
 * How a call ended: `forwarded` — the answer is the VMS's (a remembered one when `replayed`);
 * `refused` — the proxy answered itself and nothing left (`errorCode` says why); `failed` — the
 * call left but no answer came back (`failure`: a timeout, or the connection failed).
 */
export const journalOutcomes = ['forwarded', 'refused', 'failed'] as const;
export const journalFailures = ['timeout', 'connection'] as const;
/** The `status` filter: a class of the status the browser got, or how the call ended. */
export const journalStatusFilters = ['2xx', '3xx', '4xx', '5xx', 'refused', 'failed'] as const;
export const journalExportFormats = ['har', 'jsonl'] as const;
export const journalPageSize = { default: 50, max: 200 } as const;

export type JournalOutcome = (typeof journalOutcomes)[number];
export type JournalFailure = (typeof journalFailures)[number];
export type JournalExportFormat = (typeof journalExportFormats)[number];

const operationNames: readonly VmsOperation[] = vmsOperations.map(({ name }) => name);

/** An enum rather than a check, so that the API's JSON Schema lists the operations too. */
const operationSchema = z.enum(operationNames, {
  error: `operation must be one of ${operationNames.join(', ')}`,
});

/** A journal entry's id: a positive whole number, newest highest. */
export const journalIdSchema = z.number().int().positive();

/** A request or response body as kept in the journal. */
export const journalBodySchema = z.object({
  /** The body as UTF-8 text, or in base64 when it is not valid UTF-8 (`encoding`). */
  text: z.string(),
  encoding: z.enum(['utf8', 'base64']),
  /** Its full length in bytes, as sent or received, even when only a part was kept. */
  size: z.number().int().nonnegative(),
  /** SHA-256 (lowercase hex) of the full body. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Only the first JOURNAL_BODY_LIMIT_KB were kept; `text` is that part. */
  truncated: z.boolean(),
  /** The API key, secret or a signature appeared in it and was replaced by `[redacted]`. */
  redacted: z.boolean(),
  /**
   * Present when the body is shown with its personal values masked (decision 058): how many were
   * masked, and how it was read — `json` parsed, `text` not JSON (cut at the size limit, or of
   * another form) so only the `"key": value` pairs it shows were masked, `withheld` not UTF-8
   * text, so none of it is shown. Absent: the body as kept.
   */
  personal: z
    .object({
      masked: z.number().int().nonnegative(),
      reading: z.enum(['json', 'text', 'withheld']),
    })
    .optional(),
});

/** One call as the inspector's list shows it. */
export const journalSummarySchema = z.object({
  id: journalIdSchema,
  /** When the portal received the call (ISO 8601, UTC). */
  at: z.iso.datetime(),
  /** The VMS operation; null for a path under /api/vms that is none (refused with 404). */
  operation: operationSchema.nullable(),
  method: z.string(),
  /** Path and query as the browser sent them to the portal (`/api/vms/…?…`). */
  path: z.string(),
  clientOrgId: z.number().int().nullable(),
  vendorOrgId: z.number().int().nullable(),
  /** Items in a POST body (null for GETs and for bodies that are not an array of objects). */
  itemCount: z.number().int().nonnegative().nullable(),
  /** The batch the call is about: from the VMS's 202 answer, or a results poll's `batchid`. */
  batchId: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  /** Answered from the idempotency store's memory: the VMS was not contacted again. */
  replayed: z.boolean(),
  /** The status the browser got. */
  status: z.number().int(),
  /** The VMS's own status; null when it was not reached or not asked (refused, replayed). */
  upstreamStatus: z.number().int().nullable(),
  outcome: z.enum(journalOutcomes),
  /** The portal's error code when it answered itself (refused or failed). */
  errorCode: z.string().nullable(),
  failure: z.enum(journalFailures).nullable(),
  /** From receiving the call to answering it, in milliseconds. */
  latencyMs: z.number().nonnegative(),
  /** The entry this call re-sent (`X-Portal-Replay-Of`). */
  replayOf: journalIdSchema.nullable(),
  /** Sent without the browser's local checks (`X-Portal-Unchecked: 1`). */
  unchecked: z.boolean(),
  /** Full sizes in bytes of the bodies; null when there was none. */
  requestSize: z.number().int().nonnegative().nullable(),
  responseSize: z.number().int().nonnegative().nullable(),
  /** Who sent it, when sign-in is on; null for calls made without an account. */
  sentBy: z.object({ userId: z.string(), email: z.string() }).nullable(),
  /**
   * The connection the call went to (or, refused, was meant for); null for calls recorded before
   * the deployment had several.
   */
  connection: z.string().nullable(),
  /** The W3C trace id (`traceparent`) the call was made under, as sent to the VMS. */
  traceId: z.string().nullable(),
  /** The QA suite run that made the call (decision 038); null for any other call. */
  suiteRun: journalIdSchema.nullable(),
});

/** The VMS's answer that came after the browser had been told 504 (a keyed batch's late answer). */
export const journalLateAnswerSchema = z.object({
  status: z.number().int(),
  /** From receiving the call to the late answer, in milliseconds. */
  latencyMs: z.number().nonnegative(),
  headers: z.record(z.string(), z.string()),
  body: journalBodySchema.nullable(),
});

/** One call in full. */
export const journalEntrySchema = journalSummarySchema.extend({
  /** The VMS address the call went to (for a refused call, would have gone to); null for none. */
  url: z.string().nullable(),
  /** The request body as forwarded (as received, for a refused call). */
  requestBody: journalBodySchema.nullable(),
  /** The answer's headers that are safe to keep (content-type, date, retry-after, x-request-id…). */
  responseHeaders: z.record(z.string(), z.string()),
  /** The answer the browser got. */
  responseBody: journalBodySchema.nullable(),
  /**
   * From receiving the call to the first byte of the VMS's answer (its headers), in
   * milliseconds: the rest of `latencyMs` is receiving the answer and passing it on. Null when
   * no answer came from the VMS (refused, answered from memory, failed) or not recorded.
   */
  firstByteMs: z.number().nonnegative().nullable(),
  lateAnswer: journalLateAnswerSchema.nullable(),
});

/** `GET /api/journal/:id`. */
export const journalDetailSchema = journalEntrySchema.extend({
  /** The other calls about the same batch id (its POST, its results polls), oldest first. */
  related: z.array(journalSummarySchema),
  /** Calls that re-sent this one (`replayOf` = this id), oldest first. */
  replays: z.array(journalSummarySchema),
  /**
   * How its personal values are shown (decision 058): `masked`, or `full` — the caller sent it,
   * or revealed it giving a reason.
   */
  personalData: z.enum(['masked', 'full']),
  /** Whether the caller may reveal it (QA and admins, giving a reason). */
  mayReveal: z.boolean(),
});

/** Longest reason a reveal of personal data may give. */
export const revealReasonMax = 500;

/** Why personal data is revealed: required, said in the audit trail. */
export const revealReasonSchema = z
  .string({ error: 'Give a reason to reveal personal data: it is kept in the audit trail.' })
  .trim()
  .min(1, 'Give a reason to reveal personal data: it is kept in the audit trail.')
  .max(revealReasonMax, `The reason must be at most ${revealReasonMax} characters.`);

/** `POST /api/journal/:id/reveal`: one call's personal data, shown to QA or an admin for a reason. */
export const journalRevealRequestSchema = z.object({ reason: revealReasonSchema });

/**
 * `GET /api/journal`: a page, the latest started first; `next` is the cursor of the following
 * page (opaque to the browser).
 */
export const journalPageSchema = z.object({
  entries: z.array(journalSummarySchema),
  next: z.string().nullable(),
});

/**
 * `GET /api/journal/:id/curl`: the call again, straight to the VMS, in three forms. None holds the
 * key, the secret or a signature: each reads $VMS_API_KEY and $VMS_API_SECRET where it runs.
 */
export const journalCurlSchema = z.object({
  /** The whole command; the signature is computed by `snippet` from $VMS_API_KEY and $VMS_API_SECRET. */
  curl: z.string(),
  /** The shell code that computes x-signature (openssl, printf, date). */
  snippet: z.string(),
  /** A PowerShell script (`Invoke-RestMethod`), Windows PowerShell 5.1 or PowerShell 7. */
  powershell: z.string(),
  /** A Node script (an ES module, Node 18 or later) that sends it with `fetch`. */
  fetch: z.string(),
});

/**
 * `POST /api/journal/:id/reveal`'s answer: the call in full and its copies (null when it is none
 * to copy: no VMS operation, or a connection no longer there).
 */
export const journalRevealSchema = z.object({
  call: journalDetailSchema,
  copies: journalCurlSchema.nullable(),
});

/** `GET /api/journal/status`: whether calls are recorded, and for how long. */
export const journalStatusSchema = z.object({
  enabled: z.boolean(),
  retentionDays: z.number().int().positive(),
  maxMb: z.number().int().positive(),
  bodyLimitKb: z.number().int().positive(),
});

export type JournalBody = z.infer<typeof journalBodySchema>;
export type JournalSummary = z.infer<typeof journalSummarySchema>;
export type JournalEntry = z.infer<typeof journalEntrySchema>;
export type JournalDetail = z.infer<typeof journalDetailSchema>;
export type JournalCurl = z.infer<typeof journalCurlSchema>;
export type JournalReveal = z.infer<typeof journalRevealSchema>;
export type JournalStatus = z.infer<typeof journalStatusSchema>;

// ── Query parameters ────────────────────────────────────────────────────────────────────────────

/**
 * A query value as it arrives: `?a=` and an absent `a` both mean "no filter", as a blank setting
 * means "not set".
 */
export const param = unsetWhenBlank;

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A date (`2026-03-02`, UTC) or a date-time with its offset, as milliseconds since 1970. */
export function instant(name: 'from' | 'to') {
  return param.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const dateTime = z.iso.datetime({ offset: true }).safeParse(value).success;
    const day = dayPattern.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
    if (!dateTime && !day) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a date such as 2026-03-02 or a date and time such as 2026-03-02T14:30:00Z; got "${value}".`,
      });
      return z.NEVER;
    }
    const ms = Date.parse(day ? `${value}T00:00:00Z` : value);
    // `to` a date: through the end of that day.
    return day && name === 'to' ? ms + 24 * 60 * 60 * 1000 - 1 : ms;
  });
}

/**
 * A list's paging parameters: `cursor`, the `next` of the previous page (the time of its last row
 * and that row's id, so a page never repeats or skips a row that arrives meanwhile), and `limit`,
 * rows a page, at most `max`.
 */
export function pageParams(max: number) {
  const limitMessage = `limit must be a whole number from 1 to ${max}.`;
  return {
    cursor: param.pipe(
      z
        .string()
        .regex(/^\d{1,16}\.[1-9]\d{0,15}$/, 'cursor must be the "next" value of the previous page.')
        .transform((value) => {
          const [at = '', id = ''] = value.split('.');
          return { at: Number(at), id: Number(id) };
        })
        .optional(),
    ),
    limit: param.pipe(
      z
        .string()
        .regex(/^\d{1,4}$/, limitMessage)
        .transform(Number)
        .pipe(z.number().min(1, limitMessage).max(max, limitMessage))
        .optional(),
    ),
  };
}

/** A connection's name (`uat`), or no filter. */
export const connectionParam = param.pipe(
  z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'connection must be a connection name such as uat.')
    .optional(),
);

/**
 * The filters of the list and the export. From and to are inclusive; `q` is words searched for in
 * request and response bodies (all of them must appear; a word ending in `*` matches as a prefix;
 * letters match without regard to case or accents).
 */
export const journalFilterSchema = z.object({
  operation: param.pipe(operationSchema.optional()),
  method: param.pipe(
    z
      .string()
      .regex(/^[A-Za-z]{1,16}$/, 'method must be an HTTP method such as GET or POST.')
      .transform((value) => value.toUpperCase())
      .optional(),
  ),
  status: oneOf('status', journalStatusFilters),
  /** A client (or vendor) org id. */
  org: param.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/, 'org must be an org id such as 1001.')
      .transform(Number)
      .optional(),
  ),
  /** A connection's name: its calls, and those recorded before there were several when it is the default. */
  connection: connectionParam,
  batch: param.pipe(z.string().max(200, 'batch must be at most 200 characters.').optional()),
  /** A W3C trace id: the calls of one trace. */
  trace: param.pipe(
    z
      .string()
      .regex(/^[0-9a-f]{32}$/, 'trace must be a trace id: 32 lowercase hex digits.')
      .optional(),
  ),
  key: param.pipe(z.string().max(128, 'key must be at most 128 characters.').optional()),
  /** A QA suite run's id: the calls it made. */
  run: param.pipe(
    z
      .string()
      .regex(/^[1-9]\d{0,15}$/, 'run must be the id of a suite run, a whole number such as 12.')
      .transform(Number)
      .optional(),
  ),
  from: instant('from'),
  to: instant('to'),
  q: param.pipe(z.string().max(500, 'q must be at most 500 characters.').optional()),
});

export const journalListQuerySchema = journalFilterSchema.extend(pageParams(journalPageSize.max));

export const journalExportQuerySchema = journalFilterSchema.extend({
  format: oneOf('format', journalExportFormats),
  /**
   * Refused when given (decision 061): a reason to reveal is never part of an address, which
   * access logs and the browser's history keep. The revealing export is a POST with the reason in
   * its body.
   */
  reveal: param.pipe(z.string().optional()),
});

/**
 * `POST /api/journal/export`: the selection exported with its personal data, for QA and admins
 * (decisions 058, 061). The reason travels in the body with the filters, never in the address.
 */
export const journalRevealedExportRequestSchema = journalFilterSchema.extend({
  format: oneOf('format', journalExportFormats),
  reason: revealReasonSchema,
});

export type JournalFilter = z.output<typeof journalFilterSchema> & {
  /**
   * With `connection`: also the calls recorded before the deployment named connections, which all
   * went to its one VMS (set by the server for the default connection; not a URL parameter).
   */
  connectionOrUnnamed?: boolean;
  /**
   * Only the calls this user sent (set by the server for a recruiter, who sees no one else's
   * calls; not a URL parameter).
   */
  sentByUser?: string;
};
/** What the browser puts in the address: every filter as text. */
export type JournalListParams = z.input<typeof journalListQuerySchema>;
