/**
 * A time as the portal's API and exports write it (ISO 8601, UTC, to the millisecond), from the
 * epoch milliseconds its stores keep.
 */
export const isoTime = (at: number): string => new Date(at).toISOString();
