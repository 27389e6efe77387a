export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Runs a pending call now (e.g. when the page is being hidden). */
  flush(): void;
  cancel(): void;
}

/** Calls `run` once `waitMs` have passed without another call; `flush` runs a pending call now. */
export function debounce<A extends unknown[]>(
  run: (...args: A) => void,
  waitMs: number,
): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: A | undefined;
  const fire = () => {
    timer = undefined;
    const args = pending;
    pending = undefined;
    if (args) run(...args);
  };
  const debounced = (...args: A) => {
    pending = args;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(fire, waitMs);
  };
  debounced.flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    fire();
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    pending = undefined;
  };
  return debounced;
}
