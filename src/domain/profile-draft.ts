import { z } from 'zod';

/**
 * Drafting a VMS profile from the VMS itself (`npm run doctor -- draft-profile`, and the
 * Connections page's action through `POST /api/connections/:name/draft-profile`): the signed
 * example it may be given, and what it answers. Shared by the server and the browser.
 */

/**
 * A known-good signed call, as a VMS's own client or its onboarding documents show it: the
 * headers as sent (the key, the signature, and the timestamp when it travels in one), the path
 * with its query, the body when it had one, and the timestamp signed when it was not sent. It was
 * signed with the connection's secret, which is never in it.
 */
export const signatureExampleSchema = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], {
    error: 'method must be GET, POST, PUT, PATCH or DELETE',
  }),
  path: z
    .string({ error: 'path must be the path the call went to, such as "/api/v2/requisitions?x=1"' })
    .min(1, 'path must not be empty'),
  headers: z.record(z.string(), z.string(), {
    error: 'headers must be an object of the header names and values sent',
  }),
  body: z.string({ error: 'body must be the body as sent, as text' }).optional(),
  timestamp: z.string({ error: 'timestamp must be the timestamp signed, as text' }).optional(),
});

export type SignatureExample = z.infer<typeof signatureExampleSchema>;

/** The body of `POST /api/connections/:name/draft-profile`. */
export const profileDraftRequestSchema = z
  .strictObject({
    example: signatureExampleSchema.optional(),
    /** Send one test requisition and a test candidate to it (refused on production). */
    sendTest: z.boolean({ error: 'sendTest must be true or false' }).optional(),
  })
  .default({});

/** Each key's proof, or that it is a guess or left out: `proved: …`, `guess: …`, `undecided: …`. */
export const draftEvidenceSchema = z.record(z.string(), z.string());

export const profileDraftSchema = z.discriminatedUnion('drafted', [
  z.object({
    drafted: z.literal(true),
    /** The profile file: `preset`, the keys drafted, and `$evidence`. */
    profile: z.looseObject({ $evidence: draftEvidenceSchema }),
  }),
  z.object({
    drafted: z.literal(false),
    problem: z.string(),
    /** Every call tried, one line each. */
    tried: z.array(z.string()),
  }),
]);
export type ProfileDraft = z.infer<typeof profileDraftSchema>;
