import type { JsonObject, UnreadableAnswer } from './list-dialect';
import { listRecordsFromVms, withoutMisreadDates } from './list-dialect';
import type { VmsProfile } from './profile';

/**
 * A VMS's list read page by page, in its own parameters (part of list-dialect.ts's translation):
 * the page asked for, the size it answers with, and the records shown from each page.
 */

/** `path` with more query parameters (a signature's timestamp, a page). */
export function joinQuery(template: string, params: URLSearchParams): string {
  const rest = params.toString();
  if (rest === '') return template;
  return `${template}${template.includes('?') ? '&' : '?'}${rest}`;
}

/** The query parameters that ask for page `index` (0-based) of the list; none without paging. */
export function pageParameters(profile: VmsProfile, index: number): Record<string, string> {
  const paging = profile.list.paging;
  switch (paging.style) {
    case 'none':
      return {};
    case 'page':
      return {
        [paging.page]: String(paging.firstPage + index),
        [paging.size]: String(paging.pageSize),
      };
    case 'offset':
      return {
        [paging.offset]: String(index * paging.pageSize),
        [paging.limit]: String(paging.pageSize),
      };
  }
}

/** `path` asking for page `index`. */
export function withPage(profile: VmsProfile, path: string, index: number): string {
  return joinQuery(path, new URLSearchParams(pageParameters(profile, index)));
}

/** How many records make a full page: a shorter page is the last. Null without paging. */
export function pageSize(profile: VmsProfile): number | null {
  return profile.list.paging.style === 'none' ? null : profile.list.paging.pageSize;
}

/** The list page a call in the profile's dialect asks for; null for the whole list. */
export function pageAskedFor(
  profile: VmsProfile,
  params: URLSearchParams,
): { offset: number; size: number } | null {
  const paging = profile.list.paging;
  const number = (name: string, fallback: number) => {
    const value = params.get(name);
    return value !== null && /^\d{1,9}$/.test(value) ? Number(value) : fallback;
  };
  switch (paging.style) {
    case 'none':
      return null;
    case 'page': {
      const size = Math.min(number(paging.size, paging.pageSize), paging.pageSize);
      return {
        offset: Math.max(0, number(paging.page, paging.firstPage) - paging.firstPage) * size,
        size,
      };
    }
    case 'offset': {
      const size = Math.min(number(paging.limit, paging.pageSize), paging.pageSize);
      return { offset: number(paging.offset, 0), size };
    }
  }
}

/**
 * One list answer as the portal shows it: its records in the portal's names, times that the
 * list proves misread put back as written (withoutMisreadDates); or what made it unreadable.
 */
export function shownListFromVms(
  profile: VmsProfile,
  text: string,
): JsonObject[] | UnreadableAnswer {
  const records = listRecordsFromVms(profile, text);
  return Array.isArray(records) ? withoutMisreadDates(profile, records) : records;
}
