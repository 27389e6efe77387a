import type { z } from 'zod';
import { ApiError } from '../../domain/api-error';

/**
 * Reads a query string with its schema; anything unreadable is a 400 that names the parameter:
 * one `what` has no such filter (`what` says whose: "The journal", "The audit trail"), a
 * parameter given twice, or a value its schema refuses.
 */
export function parseQuery<S extends z.ZodObject>(
  schema: S,
  query: unknown,
  what: string,
): z.output<S> {
  const values: Record<string, string> = {};
  const known = new Set(Object.keys(schema.shape));
  for (const [name, value] of Object.entries(typeof query === 'object' && query ? query : {})) {
    if (!known.has(name)) {
      throw new ApiError(
        'invalid_parameter',
        `${what} has no filter "${name}". Use ${[...known].join(', ')}.`,
        [{ field: name, message: 'unknown parameter' }],
      );
    }
    if (typeof value !== 'string') {
      throw new ApiError(
        'invalid_parameter',
        `The parameter ${name} is given more than once. Give it once.`,
        [{ field: name, message: 'given more than once' }],
      );
    }
    values[name] = value;
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    throw new ApiError(
      'invalid_parameter',
      parsed.error.issues.map((issue) => issue.message).join(' '),
      parsed.error.issues.map((issue) => ({
        field: String(issue.path[0] ?? 'query'),
        message: issue.message,
      })),
    );
  }
  return parsed.data;
}
