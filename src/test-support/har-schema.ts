import { z } from 'zod';

/**
 * HAR 1.2 (W3C Web Performance WG draft, http://www.softwareishard.com/blog/har-12-spec/): the
 * objects and fields the format requires, strictly typed, for tests that check an export is a
 * HAR that other tools (Chrome DevTools, Insomnia, Postman's importer) will open.
 */
const nameValue = z.object({ name: z.string(), value: z.string(), comment: z.string().optional() });
const cookie = z.looseObject({ name: z.string(), value: z.string() });
/** ISO 8601 with a time zone, as HAR's startedDateTime must be. */
const isoDateTime = z.iso.datetime({ offset: true });

export const harSchema = z.object({
  log: z.object({
    version: z.literal('1.2'),
    creator: z.object({
      name: z.string().min(1),
      version: z.string().min(1),
      comment: z.string().optional(),
    }),
    browser: z.object({ name: z.string(), version: z.string() }).optional(),
    pages: z.array(z.unknown()).optional(),
    entries: z.array(
      z.object({
        pageref: z.string().optional(),
        startedDateTime: isoDateTime,
        time: z.number().nonnegative(),
        request: z.object({
          method: z.string().min(1),
          url: z.url(),
          httpVersion: z.string().min(1),
          cookies: z.array(cookie),
          headers: z.array(nameValue),
          queryString: z.array(nameValue),
          postData: z
            .object({
              mimeType: z.string(),
              params: z.array(z.unknown()).optional(),
              text: z.string(),
              comment: z.string().optional(),
            })
            .optional(),
          headersSize: z.number().int().min(-1),
          bodySize: z.number().int().min(-1),
          comment: z.string().optional(),
        }),
        response: z.object({
          status: z.number().int(),
          statusText: z.string(),
          httpVersion: z.string(),
          cookies: z.array(cookie),
          headers: z.array(nameValue),
          content: z.object({
            size: z.number().int().min(-1),
            compression: z.number().int().optional(),
            mimeType: z.string(),
            text: z.string().optional(),
            encoding: z.string().optional(),
            comment: z.string().optional(),
          }),
          redirectURL: z.string(),
          headersSize: z.number().int().min(-1),
          bodySize: z.number().int().min(-1),
          comment: z.string().optional(),
        }),
        cache: z.looseObject({}),
        timings: z.object({
          blocked: z.number().min(-1).optional(),
          dns: z.number().min(-1).optional(),
          connect: z.number().min(-1).optional(),
          send: z.number().min(0),
          wait: z.number().min(0),
          receive: z.number().min(0),
          ssl: z.number().min(-1).optional(),
          comment: z.string().optional(),
        }),
        serverIPAddress: z.string().optional(),
        connection: z.string().optional(),
        comment: z.string().optional(),
      }),
    ),
    comment: z.string().optional(),
  }),
});

export type Har = z.infer<typeof harSchema>;
