import type { z } from 'zod';
import { requestJson } from './http';

/**
 * Parameters as a query string, in the order given: values are trimmed and empty ones left out,
 * so an untouched filter never reaches the server.
 */
export function queryString(...parts: Partial<Record<string, string | null>>[]): string {
  const query = new URLSearchParams();
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const trimmed = value?.trim();
      if (trimmed) query.set(key, trimmed);
    }
  }
  return query.toString();
}

/**
 * How a list the server answers in pages is read (for TanStack Query's `infiniteQueryOptions`):
 * the first page without a cursor, each next one with the `next` of the page before, until a
 * page has none. `url` makes the address with the cursor's parameter, if any.
 */
export function cursorPages<S extends z.ZodType<{ next: string | null }>>(
  url: (cursor: Record<string, string>) => string,
  schema: S,
  what: string,
) {
  return {
    queryFn: async ({ pageParam, signal }: { pageParam: string; signal: AbortSignal }) =>
      (await requestJson(url(pageParam ? { cursor: pageParam } : {}), schema, what, { signal }))
        .data,
    initialPageParam: '',
    getNextPageParam: (page: z.output<S>) => page.next ?? undefined,
  };
}
