import type { z } from 'zod';
import { ApiError } from '@/domain/api-error';
import type { SuiteRecord, SuiteStore } from './suite-store';

/* What the suites' and the runs' routes both read from a request, and the stored suite they name. */

/** A path id: a whole number, or the thing is not there. */
export function pathId(value: string, what: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) {
    throw new ApiError(
      'not_found',
      `There is no ${what} "${value.slice(0, 40)}": ids are whole numbers.`,
    );
  }
  return Number(value);
}

/** Zod's first problems as a sentence a QA engineer can act on, and as details. */
function invalid(error: z.ZodError, what: string): ApiError {
  const issues = error.issues.slice(0, 10);
  return new ApiError(
    'invalid_body',
    `${what}: ${issues.map((issue) => `${issue.path.join('.') || 'the body'}: ${issue.message}`).join('; ')}.`,
    issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message })),
  );
}

export function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(parsed.error, what);
  return parsed.data;
}

/** Suite `id` as stored, at `version` or its latest; a 404 saying why when there is none. */
export async function storedSuite(
  store: SuiteStore,
  id: number,
  version?: number,
): Promise<SuiteRecord> {
  const found = await store.getSuite(id, version);
  if (!found) {
    throw new ApiError(
      'not_found',
      version === undefined
        ? `There is no suite ${id}: it may have been deleted. Reload the list of suites.`
        : `Suite ${id} has no version ${version}. Its versions are listed under /api/suites/${id}/versions.`,
    );
  }
  return found;
}
