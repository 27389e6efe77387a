import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import {
  putUserRecordSchema,
  recordOwnerHeader,
  userCollections,
  userRecordConflictSchema,
  userRecordSchema,
  userRecordsSchema,
  type UserCollection,
} from '@/domain/auth';
import type { PortalConfig } from '@/server/config';
import { limitPerMinute } from '@/server/http/minute-limit';
import { requireUser, signedInRoutes } from '@/server/http/require-user';
import {
  bodySchema,
  partSchema,
  responseSchema,
  withRouteSchemas,
} from '@/server/http/route-schemas';

/**
 * What one user may keep on the server and how often they may ask. A draft is a few KB and a
 * submission's record holds its batch's items, so these leave a team's work ample room while a
 * script with someone's session cannot fill the portal database or keep it busy.
 */
export interface UserRecordLimits {
  /** One record's value, as JSON. */
  recordBytes: number;
  /** All of a user's records (keys and values, every collection). */
  userBytes: number;
  /** A user's records, not counting tombstones (whose keys count in `userBytes`). */
  userRecords: number;
  /** Calls to /api/me per minute per user (reads and writes). */
  perMinute: number;
}

export const userRecordLimits: UserRecordLimits = {
  recordBytes: 1024 * 1024,
  userBytes: 50 * 1024 * 1024,
  userRecords: 20_000,
  perMinute: 600,
};

export interface UserRecordRoutesOptions {
  config: PortalConfig;
  /** Tests make them small; default userRecordLimits. */
  limits?: Partial<UserRecordLimits>;
}

function size(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

const kindOf = (collection: UserCollection) => (collection === 'drafts' ? 'draft' : 'submission');

const keptHere =
  'It stays in this browser: delete drafts you no longer need, and it is saved on the server at the next sync.';

/** Most records one GET returns; the browser asks again from `version` while pages are full. */
export const userRecordPageSize = 200;

/** `?since=`: the version of the last read; other parameters are no concern of this route. */
const sinceQuery = partSchema(
  z.object({
    since: z
      .string()
      .regex(/^\d{1,15}$/, 'since must be a whole number: the version of the last read')
      .transform(Number)
      .optional(),
  }),
  (issue) =>
    new ApiError('invalid_parameter', issue.message, [
      { field: 'since', message: 'not a whole number' },
    ]),
);

const noSuchCollection = (name: unknown) =>
  new ApiError(
    'not_found',
    `There is no collection "${String(name).slice(0, 40)}" of your records; there are ${userCollections.join(' and ')}.`,
  );

const collectionParams = partSchema(
  z.object({ collection: z.enum(userCollections) }),
  (_issue, { collection }) => noSuchCollection(collection),
);

/** `/:collection/:key`: the collection first (404 when there is none), then the key. */
const recordParams = partSchema(
  z.object({ collection: z.enum(userCollections), key: userRecordSchema.shape.key }),
  (issue, { collection }) =>
    issue.path[0] === 'collection'
      ? noSuchCollection(collection)
      : new ApiError('invalid_parameter', 'A record key has 1 to 200 characters.', [
          { field: 'key', message: 'empty or too long' },
        ]),
);

/**
 * Each user's drafts, submissions and unsent batches, synced with the browser's copy (decision 026). GET gives
 * what changed after `since`; PUT writes when `baseVersion` is the server's version, else 409 with
 * the server's record, so the browser can keep both and ask.
 */
const routes: FastifyPluginAsync<UserRecordRoutesOptions> = async (
  app,
  { config, limits: given },
) => {
  const auth = app.accounts;
  const limits = { ...userRecordLimits, ...given };
  signedInRoutes(
    app,
    config,
    'recruiter',
    'Sign-in is off on this portal, so nothing is kept per user on the server: drafts, batches and submissions stay in this browser.',
  );
  app.addHook('onRequest', async (request) => {
    const session = request.portalSession;
    const owner = request.headers[recordOwnerHeader];
    if (session && typeof owner === 'string' && owner !== session.user.id) {
      // The page acts for someone who is no longer the one signed in on this browser: as far as
      // their work is concerned, they are signed out, and nothing of theirs is read or written.
      throw new ApiError(
        'unauthenticated',
        'Someone else has signed in on this browser since this page was opened, so your work was not saved under their name. Sign in again to go on.',
      );
    }
  });
  // Per user, after the session check (it gives the user): one person's script cannot keep the
  // database busy, and people behind one address do not share a count.
  await limitPerMinute(app, {
    max: limits.perMinute,
    keyGenerator: (request) => request.portalSession?.user.id ?? request.ip,
    message: (max, after) =>
      `Too many requests for your drafts and submissions: the portal takes at most ${max} a minute from one user. Wait ${after} and it goes on by itself; your work stays in this browser meanwhile.`,
  });

  /**
   * A write that would pass one of the limits is refused before anything is written. Checked
   * outside the write's transaction: two writes at once may pass a limit by one record, which
   * a quota can bear.
   */
  async function checkRoom(
    userId: string,
    collection: UserCollection,
    key: string,
    value: string | null,
  ): Promise<void> {
    const kind = kindOf(collection);
    const valueBytes = value === null ? 0 : Buffer.byteLength(value);
    if (valueBytes > limits.recordBytes) {
      throw new ApiError(
        'body_too_large',
        `This ${kind} is ${size(valueBytes)}; the server keeps at most ${size(limits.recordBytes)} for one draft or submission, so it was not saved there. It stays in this browser; make it smaller (fewer items in one batch) to keep it on the server too.`,
        [{ field: 'value', message: 'too large' }],
      );
    }
    const used = await auth.records.usage(userId, { collection, key });
    if (value !== null && used.records + 1 > limits.userRecords) {
      throw new ApiError(
        'quota_exceeded',
        `You keep ${used.records} drafts and submissions on the server, the most one user may, so this ${kind} was not saved there. ${keptHere}`,
      );
    }
    const bytes = Buffer.byteLength(key) + valueBytes;
    if (used.bytes + bytes > limits.userBytes) {
      throw new ApiError(
        'quota_exceeded',
        `Your drafts and submissions on the server take ${size(used.bytes)} of the ${size(limits.userBytes)} one user may keep, and this ${kind} (${size(bytes)}) does not fit, so it was not saved there. ${keptHere}`,
      );
    }
  }

  const api = withRouteSchemas(app);

  api.get(
    '/:collection',
    {
      schema: {
        params: collectionParams,
        querystring: sinceQuery,
        response: { 200: responseSchema(userRecordsSchema) },
      },
    },
    async (request) => {
      const session = requireUser(request, config);
      if (!session) throw new Error('requireUser gave no session with sign-in on');
      const { collection } = request.params;
      const since = request.query.since ?? 0;
      const page = await auth.records.changedSince(
        session.user.id,
        collection,
        since,
        userRecordPageSize,
      );
      const last = page.records.at(-1);
      // A full page: the next read starts after its last record, not at the collection's version.
      const version =
        page.records.length === userRecordPageSize && last ? last.version : page.version;
      return { records: page.records, version };
    },
  );

  api.put(
    '/:collection/:key',
    {
      schema: {
        params: recordParams,
        body: bodySchema(putUserRecordSchema),
        response: {
          200: responseSchema(userRecordSchema),
          409: responseSchema(userRecordConflictSchema),
        },
      },
    },
    async (request, reply) => {
      const session = requireUser(request, config);
      if (!session) throw new Error('requireUser gave no session with sign-in on');
      const { collection, key } = request.params;
      const { body } = request;
      const deleted = body.deleted ?? false;
      if (!deleted && body.value === undefined) {
        throw new ApiError('invalid_body', 'Give the record’s value, or deleted: true.', [
          { field: 'value', message: 'missing' },
        ]);
      }
      const value = deleted ? null : JSON.stringify(body.value);
      await checkRoom(session.user.id, collection, key, value);
      const result = await auth.records.put(
        session.user.id,
        collection,
        key,
        {
          value,
          baseVersion: body.baseVersion,
          deleted,
        },
        auth.now(),
      );
      if (result.kind === 'conflict') {
        return reply.code(409).send({
          error: {
            code: 'version_conflict',
            message: `This ${collection === 'drafts' ? 'draft' : 'submission'} was changed on another device (version ${result.current.version}, yours was based on ${body.baseVersion}). Both versions are kept: choose which to keep, then save again.`,
            details: [],
          },
          current: result.current,
        });
      }
      return result.record;
    },
  );
};

export const userRecordRoutes = fp(routes, {
  name: 'user-record-routes',
  fastify: '5.x',
  encapsulate: true,
  dependencies: ['accounts'],
});
