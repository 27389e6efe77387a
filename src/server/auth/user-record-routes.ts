import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../domain/api-error';
import {
  putUserRecordSchema,
  recordOwnerHeader,
  userCollections,
  userRecordSchema,
  type UserCollection,
  type UserRecord,
} from '../../domain/auth';
import type { PortalConfig } from '../config';
import { requireUser } from './auth-hooks';
import { acceptJsonOnly, parseBody } from './json-body';
import type { PortalAuth } from './portal-auth';

export interface UserRecordRoutesOptions {
  config: PortalConfig;
  auth: Promise<PortalAuth>;
}

/** Most records one GET returns; the browser asks again from `version` while pages are full. */
export const userRecordPageSize = 200;

const sinceSchema = z.object({
  since: z
    .string()
    .regex(/^\d{1,15}$/, 'since must be a whole number: the version of the last read')
    .transform(Number)
    .optional(),
});

const keySchema = userRecordSchema.shape.key;

function collectionOf(name: string): UserCollection {
  const collection = userCollections.find((known) => known === name);
  if (collection === undefined) {
    throw new ApiError(
      'not_found',
      `There is no collection "${name.slice(0, 40)}" of your records; there are ${userCollections.join(' and ')}.`,
    );
  }
  return collection;
}

/**
 * Each user's drafts, submissions and unsent batches, synced with the browser's copy (decision 026). GET gives
 * what changed after `since`; PUT writes when `baseVersion` is the server's version, else 409 with
 * the server's record, so the browser can keep both and ask.
 */
export const userRecordRoutes: FastifyPluginAsync<UserRecordRoutesOptions> = async (
  app,
  { config, auth: opening },
) => {
  acceptJsonOnly(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!config.auth.required) {
      throw new ApiError(
        'not_found',
        'Sign-in is off on this portal, so nothing is kept per user on the server: drafts, batches and submissions stay in this browser.',
      );
    }
    const session = requireUser(request, config);
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

  app.get<{ Params: { collection: string } }>('/:collection', async (request) => {
    const session = requireUser(request, config);
    if (!session) throw new Error('requireUser gave no session with sign-in on');
    const collection = collectionOf(request.params.collection);
    const parsed = sinceSchema.safeParse(request.query);
    if (!parsed.success) {
      throw new ApiError('invalid_parameter', parsed.error.issues[0]?.message ?? 'bad since', [
        { field: 'since', message: 'not a whole number' },
      ]);
    }
    const since = parsed.data.since ?? 0;
    const auth = await opening;
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
  });

  app.put<{ Params: { collection: string; key: string } }>(
    '/:collection/:key',
    async (request, reply): Promise<UserRecord> => {
      const session = requireUser(request, config);
      if (!session) throw new Error('requireUser gave no session with sign-in on');
      const collection = collectionOf(request.params.collection);
      const key = keySchema.safeParse(request.params.key);
      if (!key.success) {
        throw new ApiError('invalid_parameter', 'A record key has 1 to 200 characters.', [
          { field: 'key', message: 'empty or too long' },
        ]);
      }
      const body = parseBody(putUserRecordSchema, request.body);
      const deleted = body.deleted ?? false;
      if (!deleted && body.value === undefined) {
        throw new ApiError('invalid_body', 'Give the record’s value, or deleted: true.', [
          { field: 'value', message: 'missing' },
        ]);
      }
      const auth = await opening;
      const result = await auth.records.put(
        session.user.id,
        collection,
        key.data,
        {
          value: deleted ? null : JSON.stringify(body.value),
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
