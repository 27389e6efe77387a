import { z } from 'zod';

/**
 * How often the browser's copy of a requisition list is read whole, however well its refreshes
 * hold: after so many refreshes, or so many minutes since the last whole read, whichever comes
 * first. A connection's profile may say (`list.fullReadEvery`); the browser is told with the
 * connection's settings.
 */
export const fullReadEverySchema = z.strictObject({
  refreshes: z
    .number()
    .int()
    .min(1, 'list.fullReadEvery.refreshes must be 1 or more')
    .max(1000, 'list.fullReadEvery.refreshes must be 1,000 or less'),
  minutes: z
    .number()
    .int()
    .min(1, 'list.fullReadEvery.minutes must be 1 or more')
    .max(1440, 'list.fullReadEvery.minutes must be 1,440 (a day) or less'),
});

export type FullReadEvery = z.infer<typeof fullReadEverySchema>;

/** Unless a profile says otherwise: every 20th refresh or every 30 minutes. */
export const defaultFullReadEvery: FullReadEvery = { refreshes: 20, minutes: 30 };
