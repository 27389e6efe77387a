/**
 * A list's load started before anyone asks for it (by the worker as the page is first drawn, by
 * the page as the list's code arrives), for the first one who asks to take over. What it reads
 * from the browser's copy while nobody listens is held, and handed to whoever joins, at once;
 * after that it goes straight to them.
 */
export interface EarlyLoad<Stored, Result> {
  result: Promise<Result>;
  /** Listens from now on (and hears the copy already read, if any); the load's result. */
  join(onStored: (records: Stored) => void): Promise<Result>;
}

export function earlyLoad<Stored, Result>(
  start: (onStored: (records: Stored) => void) => Promise<Result>,
): EarlyLoad<Stored, Result> {
  let held: { records: Stored } | null = null;
  let listener: ((records: Stored) => void) | null = null;
  const result = start((records) => {
    if (listener) listener(records);
    else held = { records };
  });
  return {
    result,
    join(onStored) {
      if (held) onStored(held.records);
      held = null;
      listener = onStored;
      return result;
    },
  };
}
