import type { FastifyInstance, FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import { z } from 'zod';
import { ApiError } from '@/domain/api-error';

/**
 * Route schemas (decision 041): each route declares its params, querystring, body and answers as
 * JSON Schema, derived with `z.toJSONSchema` from the Zod schema the browser uses for the same
 * shape (src/domain), so there is one source of truth. The answers are serialized by Fastify from
 * their JSON Schema: a field the schema does not name is never sent. The request parts are
 * checked by the Zod schema their JSON Schema came from, so that a refusal says what the domain's
 * messages say, in the portal's error shape, with the codes the routes always answered with;
 * JSON Schema's own messages ("must NOT have fewer than 12 characters") are not for people.
 */

declare const checked: unique symbol;

/** A JSON Schema for one part of a route, and (for the type checker) the type it stands for. */
export type RouteSchema<T> = Readonly<Record<string, unknown>> & { readonly [checked]: T };

/**
 * The routes' type provider: a handler's `request.body`, `query` and `params` are what their
 * schemas check them to, and what it answers must fit the answer's schema.
 */
export interface PortalTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends RouteSchema<infer T> ? T : unknown;
  serializer: this['schema'] extends RouteSchema<infer T> ? T : unknown;
}

/**
 * A request part its schema refused, as Fastify carries a validation error to the error handler
 * (which answers with `refusal`). An ApiError itself cannot be that error: Fastify sets a
 * validation error's `statusCode`, which on an ApiError is its code's and read-only.
 */
export class SchemaRefusal extends Error {
  readonly statusCode: number;

  constructor(readonly refusal: ApiError) {
    super(refusal.message);
    this.statusCode = refusal.statusCode;
  }
}

type Check = (value: unknown) => { value: unknown } | { error: ApiError };

/** Each request part's JSON Schema, and the check behind it. */
const checks = new WeakMap<object, Check>();

function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  // Draft 7: the draft Fastify's own schema tooling reads. `$schema` goes: the schema is part of
  // a route's, not a document of its own.
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, { target: 'draft-07', io });
  return json;
}

function requestPart<T>(schema: z.ZodType, check: Check): RouteSchema<T> {
  const json = jsonSchemaOf(schema, 'input');
  checks.set(json, check);
  return json as RouteSchema<T>;
}

function issueDetails(error: z.ZodError, whole: string) {
  return error.issues.map((issue) => ({
    field: issue.path.join('.') || whole,
    message: issue.message,
  }));
}

/**
 * A JSON body, checked by `schema`: a refusal is 400 `invalid_body` with every issue's message,
 * field by field. No body is checked as `undefined` (a schema with a default gives its default).
 */
export function bodySchema<S extends z.ZodType>(schema: S): RouteSchema<z.output<S>> {
  return requestPart(schema, (value) => {
    // Fastify hands a validator null for a request without a body.
    const parsed = schema.safeParse(value ?? undefined);
    if (parsed.success) return { value: parsed.data };
    return {
      error: new ApiError(
        'invalid_body',
        parsed.error.issues.map((issue) => issue.message).join(' '),
        issueDetails(parsed.error, 'body'),
      ),
    };
  });
}

/**
 * A query string, checked by `schema`; anything unreadable is 400 `invalid_parameter` naming the
 * parameter: one `what` has no such filter (`what` says whose: "The journal", "The audit trail"),
 * a parameter given twice, or a value its schema refuses.
 */
export function querySchema<S extends z.ZodObject>(
  schema: S,
  what: string,
): RouteSchema<z.output<S>> {
  const known = new Set(Object.keys(schema.shape));
  return requestPart(schema, (query) => {
    const values: Record<string, string> = {};
    for (const [name, value] of Object.entries(typeof query === 'object' && query ? query : {})) {
      if (!known.has(name)) {
        return {
          error: new ApiError(
            'invalid_parameter',
            `${what} has no filter "${name}". Use ${[...known].join(', ')}.`,
            [{ field: name, message: 'unknown parameter' }],
          ),
        };
      }
      if (typeof value !== 'string') {
        return {
          error: new ApiError(
            'invalid_parameter',
            `The parameter ${name} is given more than once. Give it once.`,
            [{ field: name, message: 'given more than once' }],
          ),
        };
      }
      values[name] = value;
    }
    const parsed = schema.safeParse(values);
    if (parsed.success) return { value: parsed.data };
    return {
      error: new ApiError(
        'invalid_parameter',
        parsed.error.issues.map((issue) => issue.message).join(' '),
        parsed.error.issues.map((issue) => ({
          field: String(issue.path[0] ?? 'query'),
          message: issue.message,
        })),
      ),
    };
  });
}

/**
 * A part whose refusal the route words itself (`refuse`, given the first issue and the part as it
 * came): path parameters above all, where an id that cannot be one is "there is no such thing
 * here", 404, rather than a malformed request. Without `refuse`: 400 `invalid_parameter` with the
 * issue's message.
 */
export function partSchema<S extends z.ZodObject>(
  schema: S,
  refuse: (issue: z.core.$ZodIssue, given: Record<string, unknown>) => ApiError = (issue) =>
    new ApiError('invalid_parameter', issue.message, [
      { field: String(issue.path[0] ?? 'parameters'), message: issue.message },
    ]),
): RouteSchema<z.output<S>> {
  return requestPart(schema, (value) => {
    const given = typeof value === 'object' && value !== null ? { ...value } : {};
    const parsed = schema.safeParse(given);
    if (parsed.success) return { value: parsed.data };
    // A failed parse has at least one issue.
    const [first] = parsed.error.issues;
    return { error: refuse(first as z.core.$ZodIssue, given) };
  });
}

/** An answer's JSON Schema: Fastify serializes the answer with it, sending only what it names. */
export function responseSchema<S extends z.ZodType>(schema: S): RouteSchema<z.input<S>> {
  return jsonSchemaOf(schema, 'output') as RouteSchema<z.input<S>>;
}

/**
 * Checks each request part with the Zod schema its JSON Schema was derived from. A part whose
 * schema was not made here has no check behind it: that is a mistake in the route, and the start
 * fails naming it rather than letting the part through unchecked.
 */
const zodChecks: FastifySchemaCompiler<unknown> = ({ schema, method, url, httpPart }) => {
  const check = typeof schema === 'object' && schema !== null ? checks.get(schema) : undefined;
  if (check === undefined) {
    throw new Error(
      `${method} ${url}: its ${httpPart ?? 'request'} schema was not made with bodySchema, querySchema or partSchema (http/route-schemas.ts), so nothing would check it.`,
    );
  }
  const validate: ReturnType<FastifySchemaCompiler<unknown>> = (value: unknown) => {
    const result = check(value);
    return 'error' in result ? { error: new SchemaRefusal(result.error) } : result;
  };
  return validate;
};

/**
 * The routes of `app` (a route plugin's own instance) with their schemas checked as above and
 * typed by them. Set per plugin, so a route plugin checks its requests however it is registered.
 */
export function withRouteSchemas(app: FastifyInstance) {
  app.setValidatorCompiler(zodChecks);
  return app.withTypeProvider<PortalTypeProvider>();
}
