import { z } from 'zod';
import { apiErrorDetailSchema } from './api-error';

/**
 * Sign-in, sessions, roles and per-user data: the HTTP shapes the portal server
 * answers with and the browser parses, in one place. Secrets (passwords, session ids, invite
 * tokens once used) never appear in an answer.
 */

/** A count of sessions, or a record's version: a whole number, 0 or more. */
const count = z.number().int().nonnegative();

/** What each role may do. */
export const roles = ['recruiter', 'qa', 'admin'] as const;
export type Role = (typeof roles)[number];

/** Each role may do what the roles below it may: admin ⊃ qa ⊃ recruiter. */
export const roleRank: Record<Role, number> = { recruiter: 0, qa: 1, admin: 2 };

export const roleLabels: Record<Role, string> = {
  recruiter: 'Recruiter: sends requisitions and candidates for the client orgs granted',
  qa: 'QA: also the inspector’s bodies, replay, sends without local checks',
  admin: 'Admin: also users, org grants and settings',
};

/** The header the browser sends its CSRF token in, on every state-changing call. */
export const csrfHeader = 'x-csrf-token';

/** Passwords: ASVS 5.0 (V6.2): at least 12 characters, at most 128, any characters. */
export const passwordPolicy = { min: 12, max: 128 } as const;

export const passwordSchema = z
  .string()
  .min(
    passwordPolicy.min,
    `A password needs at least ${passwordPolicy.min} characters; a short sentence works well.`,
  )
  .max(passwordPolicy.max, `A password may have at most ${passwordPolicy.max} characters.`);

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email('Write an e-mail address, like name@example.com.'));

/** A signed-in user as the browser sees them. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(roles),
  /** The client orgs this user may act for (admins: every org of the deployment). */
  clientOrgIds: z.array(z.number().int()),
  /** The VMS connections this user may use, by name (admins: every one of the deployment). */
  connections: z.array(z.string()),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** `GET /api/session`: who is signed in, and whether anyone must be. */
export const sessionStateSchema = z.object({
  /** Sign-in is on (HOST not loopback, or AUTH=on): without a user, every other call is 401. */
  authRequired: z.boolean(),
  user: sessionUserSchema.nullable(),
  /** The token to send in `x-csrf-token` on POST, PUT, PATCH and DELETE. */
  csrfToken: z.string(),
  /** Single sign-on is configured (OIDC_ISSUER…): the sign-in page offers it. */
  sso: z.object({ label: z.string() }).nullable(),
});
export type SessionState = z.infer<typeof sessionStateSchema>;

/**
 * `DELETE /api/sessions`: every session of the user ended, this one too. `otherSessions` counts
 * those on other browsers and devices, so the page can say what happened there.
 */
export const signedOutEverywhereSchema = z.object({
  otherSessions: count,
});

/**
 * The header a browser names the user its per-user records belong to with (`/api/me/…`): a page
 * still holding one person's work after another signed in on the same browser (shared cookie) is
 * refused rather than writing that work into the other's records.
 */
export const recordOwnerHeader = 'x-portal-user';

/** `POST /api/session`: sign in with a password. */
export const signInSchema = z.object({ email: z.string(), password: z.string() });

/** `POST /api/invites/:token`: the invited user sets a password (and is signed in). */
export const acceptInviteSchema = z.object({ password: passwordSchema });

/** `GET /api/users` (admins). */
export const userSummarySchema = sessionUserSchema.extend({
  disabled: z.boolean(),
  /** The user has not set a password yet (an invite is pending). */
  invited: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
  /** No connection was named for them: they may use every one, those added later too. */
  everyConnection: z.boolean(),
});
export type UserSummary = z.infer<typeof userSummarySchema>;
export const userListSchema = z.object({ users: z.array(userSummarySchema) });

/** `DELETE /api/users/:id/sessions` (admins): how many of the user's sessions were ended. */
export const endedSessionsSchema = z.object({ ended: count });

/** `POST /api/users` (admins): a user invited; the link is shown once, to give to them. */
export const createUserSchema = z.object({
  email: emailSchema,
  role: z.enum(roles),
  clientOrgIds: z.array(z.number().int()),
  /** The connections they may use; absent or null: every one. */
  connections: z.array(z.string()).nullable().optional(),
});
export const createdUserSchema = z.object({
  user: userSummarySchema,
  /** Path of the one-time invite link (`/invite/<token>`), valid 72 hours. */
  invitePath: z.string(),
});

/** `PATCH /api/users/:id` (admins). */
export const updateUserSchema = z.object({
  role: z.enum(roles).optional(),
  clientOrgIds: z.array(z.number().int()).optional(),
  /** Null: every connection. */
  connections: z.array(z.string()).nullable().optional(),
  disabled: z.boolean().optional(),
});

// ── Per-user data, synced with the browser's copy ────────────────────────────

/**
 * A record kept per user (a draft, a submission), versioned by the server: a write names the
 * version it was based on; when the server holds a newer one, it answers 409 with it, and the
 * browser keeps both and asks.
 */
export const userRecordSchema = z.object({
  key: z.string().min(1).max(200),
  /** The value as the browser stores it (a draft's form values, a submission), as JSON. */
  value: z.unknown(),
  /** Increases by one with each write; 0 for a record not on the server yet. */
  version: count,
  updatedAt: z.string(),
  /** Removed (a sent draft): kept as a tombstone so other devices remove it too. */
  deleted: z.boolean(),
});
export type UserRecord = z.infer<typeof userRecordSchema>;

/**
 * The kinds of per-user records: `GET /api/me/:collection?since=<version>`. The tray (the batch
 * not yet sent, one record per payload kind and client org) is among them so that signing out,
 * which clears it from a shared browser, never loses it.
 */
export const userCollections = ['drafts', 'submissions', 'tray'] as const;
export type UserCollection = (typeof userCollections)[number];

export const userRecordsSchema = z.object({
  records: z.array(userRecordSchema),
  /** The highest version seen in this collection for this user: pass as `since` next time. */
  version: count,
});

/** `PUT /api/me/:collection/:key`. */
export const putUserRecordSchema = z.object({
  value: z.unknown(),
  /** The version this value was edited from (0 for new). */
  baseVersion: count,
  deleted: z.boolean().optional(),
});

/** 409 from `PUT /api/me/…`: someone (another device) wrote a newer version. */
export const userRecordConflictSchema = z.object({
  error: z.object({
    code: z.literal('version_conflict'),
    message: z.string(),
    details: z.array(apiErrorDetailSchema).default([]),
  }),
  current: userRecordSchema,
});
