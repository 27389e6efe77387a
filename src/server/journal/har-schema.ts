import { z } from 'zod';

/**
 * HTTP Archive 1.2 as a zod schema, written from the spec
 * (http://www.softwareishard.com/blog/har-12-spec/, mirrored in ahmadnassri/har-spec
 * versions/1.2.md): every required field, the types of the optional ones, `text` and `params`
 * never both in postData, custom fields only with a leading underscore, and `time` equal to the
 * sum of the timings that apply. The npm packages for it (har-schema, and har-validator on top of
 * it) are no longer maintained and would be a dependency for one test; this is the same document
 * in the validation library the project already uses. The journal's tests (and the inspector's
 * e2e) check the HAR export with it.
 */

const comment = z.string().optional();

/** An object whose fields are these, plus custom ones starting with `_` (spec, "Custom Fields"). */
function harObject<T extends z.ZodRawShape>(shape: T) {
  const known = new Set(Object.keys(shape));
  return z
    .object(shape)
    .catchall(z.unknown())
    .superRefine((value, ctx) => {
      for (const key of Object.keys(value)) {
        if (!known.has(key) && !key.startsWith('_')) {
          ctx.addIssue({ code: 'custom', message: `"${key}" is not a HAR 1.2 field`, path: [key] });
        }
      }
    });
}

const nameValue = harObject({ name: z.string(), value: z.string(), comment });
const cookie = harObject({
  name: z.string(),
  value: z.string(),
  path: z.string().optional(),
  domain: z.string().optional(),
  expires: z.string().optional(),
  httpOnly: z.boolean().optional(),
  secure: z.boolean().optional(),
  comment,
});
const cacheEntry = harObject({
  expires: z.string().optional(),
  lastAccess: z.string(),
  eTag: z.string(),
  hitCount: z.number(),
  comment,
});
const postData = harObject({
  mimeType: z.string(),
  params: z
    .array(
      harObject({
        name: z.string(),
        value: z.string().optional(),
        fileName: z.string().optional(),
        contentType: z.string().optional(),
        comment,
      }),
    )
    .optional(),
  text: z.string().optional(),
  comment,
}).refine((data) => (data.text === undefined) !== (data.params === undefined), {
  message: 'postData has text or params, not both',
});
/** -1 where a timing does not apply; the three that always do are never negative. */
const optionalTiming = z.number().min(-1).optional();

export const harEntrySchema = harObject({
  pageref: z.string().optional(),
  startedDateTime: z.iso.datetime({ offset: true }),
  time: z.number().nonnegative(),
  request: harObject({
    method: z.string().min(1),
    url: z.url(),
    httpVersion: z.string(),
    cookies: z.array(cookie),
    headers: z.array(nameValue),
    queryString: z.array(nameValue),
    postData: postData.optional(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
    comment,
  }),
  response: harObject({
    status: z.number().int(),
    statusText: z.string(),
    httpVersion: z.string(),
    cookies: z.array(cookie),
    headers: z.array(nameValue),
    content: harObject({
      size: z.number().int(),
      compression: z.number().optional(),
      mimeType: z.string(),
      text: z.string().optional(),
      encoding: z.string().optional(),
      comment,
    }),
    redirectURL: z.string(),
    headersSize: z.number().int(),
    bodySize: z.number().int(),
    comment,
  }),
  cache: harObject({
    beforeRequest: cacheEntry.nullable().optional(),
    afterRequest: cacheEntry.nullable().optional(),
    comment,
  }),
  timings: harObject({
    blocked: optionalTiming,
    dns: optionalTiming,
    connect: optionalTiming,
    send: z.number().nonnegative(),
    wait: z.number().nonnegative(),
    receive: z.number().nonnegative(),
    ssl: optionalTiming,
    comment,
  }),
  serverIPAddress: z.string().optional(),
  connection: z.string().optional(),
  comment,
}).refine(
  (entry) => {
    const { blocked = -1, dns = -1, connect = -1, send, wait, receive } = entry.timings;
    const sum = [blocked, dns, connect, send, wait, receive]
      .filter((time) => time !== -1)
      .reduce((total, time) => total + time, 0);
    return Math.abs(sum - entry.time) < 0.001;
  },
  { message: 'time must be the sum of the timings (those not -1)' },
);

export const harSchema = z.object({
  log: harObject({
    version: z.string().regex(/^1\.\d+$/),
    creator: harObject({ name: z.string(), version: z.string(), comment }),
    browser: harObject({ name: z.string(), version: z.string(), comment }).optional(),
    pages: z.array(z.unknown()).optional(),
    entries: z.array(harEntrySchema),
    comment,
  }),
});
