import { z } from 'zod';
import { candidateResultStatuses, requisitionResultStatuses } from '@/domain/batch-results';
import { datePatternSchema, timeZoneSchema } from '@/domain/date-patterns';
import { fullReadEverySchema } from '@/domain/list-refresh';
import {
  requisitionFilterOperators,
  vmsOperations,
  type RequisitionFilterOperator,
  type VmsOperation,
} from '@/domain/vms-contract';
import { isPlainObject } from '@/domain/wire-check';
import { isJsonPointer } from './json-pointer';
import { signatureRecipeSchema } from './signature-recipe';

/**
 * A VMS profile: how one VMS does each thing the interface's specification leaves open — where
 * each operation lives, what a POST answers, what a results row and a requisition record look
 * like, how the list pages, where an error's message is, how dates are written. The portal speaks
 * one dialect of its own to the browser (the `sandbox` profile's, documented in
 * docs/configuration.md); the proxy translates between that and a connection's profile with the
 * functions in dialect.ts, and the sandbox can answer in any profile so the portal is proved
 * against more than one. This module and dialect.ts are the only places that know a VMS's paths,
 * answer fields and status words.
 */

const pointer = (what: string) =>
  z.string().refine(isJsonPointer, {
    message: `${what} must be a JSON Pointer such as "/data/id" ("" for the whole body)`,
  });

const fieldName = (what: string) =>
  z
    .string()
    .min(1, `${what} must name a field`)
    .max(100, `${what} is too long (100 characters at most)`);

/** A word a VMS reads as a filter operator, such as `eq` or `ge`. */
const operatorWord = (operator: string) =>
  z
    .string({ error: `list.filter.operators must give the VMS's word for "${operator}"` })
    .regex(
      /^[A-Za-z0-9_.\-=<>!$]{1,20}$/,
      `list.filter.operators."${operator}" must be the word the VMS reads, such as "eq" or "ge" (20 characters at most)`,
    );

/** How a VMS names a record's fields: the interface's PascalCase, camelCase, or the payload's. */
export const listFieldNamings = ['PascalCase', 'camelCase', 'payload'] as const;

const parameterName = (what: string) =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9_.\-[\]]{1,60}$/,
      `${what} must be a query parameter name of letters, digits, _ . - [ ] (60 at most)`,
    );

/**
 * A path under the connection's base URL, with `{batchid}` where a results call names its batch,
 * in the path (`batches/{batchid}/rows`) or the query (`requisitionresults?batchid={batchid}`).
 */
const pathTemplate = (operation: VmsOperation) =>
  z
    .string()
    .regex(
      /^[A-Za-z0-9_.~\-/{}]+(\?[A-Za-z0-9_.~\-=&{}]*)?$/,
      `paths.${operation} must be a relative path such as "${operation}" (letters, digits, / _ . - ~ and {batchid}), optionally with a query`,
    )
    .refine((path) => !path.startsWith('/') && !path.includes('..'), {
      message: `paths.${operation} must be relative to the base URL: no leading "/" and no ".."`,
    })
    .refine(
      (path) => (operation.endsWith('results') ? path.includes('{batchid}') : !path.includes('{')),
      {
        message: operation.endsWith('results')
          ? `paths.${operation} must say where the batch id goes with {batchid}`
          : `paths.${operation} takes no {placeholder}`,
      },
    );

const pathsSchema = z.strictObject(
  Object.fromEntries(vmsOperations.map(({ name }) => [name, pathTemplate(name)])) as Record<
    VmsOperation,
    ReturnType<typeof pathTemplate>
  >,
);

/** How a VMS's status words map onto the portal's, for one kind of results. */
function statusWords<const T extends readonly [string, ...string[]]>(kind: string, statuses: T) {
  return z
    .record(
      z.string().min(1),
      z.enum(statuses, {
        error: (issue) =>
          `results.${kind}.statuses maps each of the VMS's words onto one of ${statuses.join(', ')}; got "${String(issue.input)}"`,
      }),
    )
    .refine((words) => Object.keys(words).length > 0, {
      message: `results.${kind}.statuses must map at least one of the VMS's status words`,
    });
}

function resultShape<const T extends readonly [string, ...string[]]>(kind: string, statuses: T) {
  return z.strictObject({
    /** Where the rows are: "" when the body is the array. */
    rows: pointer(`results.${kind}.rows`),
    /** The field with the row's 1-based position, or null when rows come in submission order. */
    rowNumber: fieldName(`results.${kind}.rowNumber`).nullable(),
    status: fieldName(`results.${kind}.status`),
    message: fieldName(`results.${kind}.message`),
    /** The id the VMS gave the item (Req_Id, Cand_Id). */
    createdId: fieldName(`results.${kind}.createdId`),
    /** The item's own reference as the VMS echoes it (client internal req, vendor candidate id). */
    reference: fieldName(`results.${kind}.reference`),
    statuses: statusWords(kind, statuses),
  });
}

const pagingSchema = z.discriminatedUnion(
  'style',
  [
    z.strictObject({ style: z.literal('none') }),
    z.strictObject({
      style: z.literal('page'),
      page: parameterName('list.paging.page'),
      size: parameterName('list.paging.size'),
      firstPage: z.number().int().min(0).max(1),
      pageSize: z.number().int().min(1).max(10_000),
    }),
    z.strictObject({
      style: z.literal('offset'),
      offset: parameterName('list.paging.offset'),
      limit: parameterName('list.paging.limit'),
      pageSize: z.number().int().min(1).max(10_000),
    }),
  ],
  { error: 'list.paging.style must be "none", "page" or "offset"' },
);

/**
 * How the VMS writes dates and date-times: each a pattern or named format of date-patterns.ts,
 * the one module that reads and writes them. `named` puts the key's name in each message (a
 * profile file's reader does not add it; the connections file's does).
 */
export function profileDatesSchema(named: boolean) {
  const key = (name: string) => (named ? `dates.${name}` : undefined);
  return z.strictObject({
    /** DATE fields the portal sends. */
    outbound: datePatternSchema('date', key('outbound')).meta({
      description: 'The DATE pattern the portal sends, such as YYYY-MM-DD or DD/MM/YYYY.',
    }),
    /** DATE fields in the records the VMS lists. */
    records: datePatternSchema('date', key('records')).meta({
      description: 'The DATE pattern of the records the VMS lists.',
    }),
    /** Created and last-updated date-times in records, and in a list filter on them. */
    dateTimes: datePatternSchema('date-time', key('dateTimes')).meta({
      description:
        'How created and updated date-times are written: a pattern (read in timeZone), iso-8601 (with Z or an offset), unix-seconds or unix-milliseconds.',
    }),
    /** Where the wall-clock times of a pattern without an offset are. */
    timeZone: timeZoneSchema(key('timeZone')).meta({
      description:
        'The IANA time zone of date-times written without an offset, such as Europe/Berlin. Default: UTC.',
    }),
  });
}

export const vmsProfileSchema = z.strictObject({
  paths: pathsSchema,
  accepted: z.strictObject({
    /** The statuses a VMS answers an accepted batch with; another 2xx is read the same, and the doctor says so. */
    statuses: z.array(z.number().int().min(200).max(299)).min(1),
    batchId: pointer('accepted.batchId'),
  }),
  results: z.strictObject({
    requisition: resultShape('requisition', requisitionResultStatuses),
    candidate: resultShape('candidate', candidateResultStatuses),
  }),
  list: z
    .strictObject({
      records: pointer('list.records'),
      /**
       * `PascalCase` (TitleRole) as the real service documents, `camelCase` (titleRole), or
       * `payload` (titlerole).
       */
      fieldNames: z.enum(listFieldNamings, {
        error: 'list.fieldNames must be "PascalCase", "camelCase" or "payload"',
      }),
      /**
       * Where the answer says how many records the client has in all (a JSON Pointer), when it
       * does: a refresh's copy is checked against it.
       */
      total: pointer('list.total')
        .refine((value) => value !== '', {
          message: 'list.total must point into the answer, such as "/meta/total"',
        })
        .optional(),
      /** How often the browser's copy is read whole however well its refreshes hold. */
      fullReadEvery: fullReadEverySchema.optional(),
      /** The names of the fields every record has beyond the payload's. */
      fields: z.strictObject({
        reqId: fieldName('list.fields.reqId'),
        created: fieldName('list.fields.created'),
        updated: fieldName('list.fields.updated'),
      }),
      filter: z.strictObject({
        field: parameterName('list.filter.field'),
        operator: parameterName('list.filter.operator'),
        value: parameterName('list.filter.value'),
        /** The VMS's word for each of the portal's operators; without it, the symbols. */
        operators: z
          .strictObject(
            Object.fromEntries(
              requisitionFilterOperators.map(({ value }) => [value, operatorWord(value)]),
            ) as Record<RequisitionFilterOperator, ReturnType<typeof operatorWord>>,
          )
          .refine((words) => new Set(Object.values(words)).size === Object.keys(words).length, {
            message: 'list.filter.operators must give each operator a word of its own',
          })
          .optional(),
      }),
      paging: pagingSchema,
    })
    .refine((list) => list.total === undefined || list.records !== '', {
      message:
        'list.total needs list.records to point into the answer (such as "/items"): an answer that is the array of records has no place for a count',
      path: ['total'],
    }),
  errors: z.strictObject({
    /** Where an error answer's message is; a body without one is shown as it came. */
    message: pointer('errors.message'),
  }),
  dates: profileDatesSchema(true),
  /** How each call is signed (signature-recipe.ts). */
  signature: signatureRecipeSchema,
});

export type VmsProfile = z.infer<typeof vmsProfileSchema>;

/**
 * Keys whose value is taken whole from the change, never merged: a status-word map names all
 * of a VMS's words (merging would keep the preset's beside them), and a paging style brings its
 * own parameters.
 */
const takenWhole = new Set(['statuses', 'paging']);

/** `base` with `change` laid over it: objects merge key by key, anything else replaces. */
function overlay(base: unknown, change: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(change)) return change;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(change)) {
    result[key] = takenWhole.has(key) ? value : overlay(base[key], value);
  }
  return result;
}

/** A profile problem as a line: where in the profile, and what is wrong. */
function problemLines(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    return issue.message.startsWith(where) || where === ''
      ? issue.message
      : `${where}: ${issue.message}`;
  });
}

export type ProfileReading = { profile: VmsProfile } | { problems: string[] };

/**
 * A profile as a connection gives it: a preset's name (`"vectorvms"`), or an object naming the
 * preset it starts from (`"preset"`, default `sandbox`) with the keys that differ, and perhaps a
 * `"$evidence"` object, which is ignored. Every problem is named by its key.
 */
export function readProfile(
  input: unknown,
  presets: Record<string, () => VmsProfile>,
): ProfileReading {
  const names = Object.keys(presets).join(', ');
  if (typeof input === 'string') {
    const preset = presets[input];
    return preset
      ? { profile: preset() }
      : { problems: [`profile "${input}" is not one of ${names}`] };
  }
  if (!isPlainObject(input)) {
    return { problems: [`profile must be a preset's name (${names}) or an object`] };
  }
  // `$evidence` is how a drafted profile says each key was proved or guessed (draft-profile):
  // for the reader of the file, never a setting.
  const { preset: presetName = 'sandbox', $evidence: _evidence, ...change } = input;
  const preset = typeof presetName === 'string' ? presets[presetName] : undefined;
  if (!preset) return { problems: [`profile.preset must be one of ${names}`] };
  const parsed = vmsProfileSchema.strict().safeParse(overlay(preset(), change));
  return parsed.success ? { profile: parsed.data } : { problems: problemLines(parsed.error) };
}
