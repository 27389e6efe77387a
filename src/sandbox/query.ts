import { z } from 'zod';
import { ApiError } from '@/domain/api-error';

/**
 * Query parameters as Fastify parses them: a name given twice arrives as an array. Parsed here
 * once so every route reads plain strings.
 */
const querySchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export type Query = Record<string, string | string[]>;

export function parseQuery(query: unknown): Query {
  const parsed = querySchema.safeParse(query ?? {});
  return parsed.success ? parsed.data : {};
}

/** The parameter's value, '' when absent; refused when given more than once. */
export function optionalParam(query: Query, name: string): string {
  const value = query[name];
  if (Array.isArray(value)) {
    throw new ApiError(
      'invalid_parameter',
      `The query parameter ${name} is given ${value.length} times; give it once.`,
    );
  }
  return value ?? '';
}

export function requiredParam(query: Query, name: string, example: string): string {
  const value = optionalParam(query, name);
  if (value === '') {
    throw new ApiError(
      'missing_parameter',
      `The query parameter ${name} is missing; add it, e.g. ${name}=${example}.`,
    );
  }
  return value;
}

const orgIdSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number);

/** Client_Org_Id and Vendor_Org_Id: VMS org ids, integers, both required (decision 000). */
export function orgIdParam(query: Query, name: string, example: number): number {
  const value = requiredParam(query, name, String(example));
  const parsed = orgIdSchema.safeParse(value);
  if (!parsed.success) {
    throw new ApiError(
      'invalid_parameter',
      `The query parameter ${name} is '${value}', which is not a VMS org id; give a whole number, ` +
        `e.g. ${name}=${example}.`,
    );
  }
  return parsed.data;
}
