import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { notificationListSchema } from '@/domain/notifications';
import { requestData } from '@/shared/api/http';

/*
 * The signed-in user's notifications in the app (decision 054), as the portal keeps them: the
 * bell reads the portal's own store, never the VMS.
 */

/** Every notification query's key starts with this, so marking read refreshes them all. */
export const notificationsKey = ['notifications'] as const;

/** How many the bell's panel lists: the newest. */
const shown = 10;
/** The bell asks again this often while the page is in front (and whenever it comes back). */
const refreshMs = 30_000;

export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: [...notificationsKey, 'newest', shown],
    queryFn: ({ signal }) =>
      requestData(
        `/api/notifications?limit=${shown}`,
        notificationListSchema,
        'Reading your notifications',
        { signal },
      ),
    refetchInterval: refreshMs,
    refetchOnWindowFocus: 'always',
  });
}

const markedSchema = z.object({ marked: z.number().int(), unread: z.number().int() });

/** Marks some of the user's notifications read, or all of them. */
export function markNotificationsRead(which: readonly number[] | 'all') {
  return requestData(
    '/api/notifications/read',
    markedSchema,
    which === 'all' ? 'Marking your notifications read' : 'Marking the notification read',
    { method: 'POST', body: which === 'all' ? { all: true } : { ids: which } },
  );
}
