/** The longest a caller waits when no frame comes (a hidden tab draws none). */
const fallbackMs = 100;

/**
 * Resolves once the browser has drawn the next frame (or at once, in a task, where nothing is
 * drawn: no window, a hidden page). Work that can wait a frame, such as re-checking a field the
 * user is typing in, starts after it: the typed character is drawn first, and its message follows
 * one frame later (web.dev, "Optimize Interaction to Next Paint": yield before non-visual work).
 */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
      setTimeout(resolve, 0);
      return;
    }
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(fallback);
      resolve();
    };
    // A frame's callbacks run before it is drawn; a task queued from one runs after.
    const fallback = setTimeout(finish, fallbackMs);
    requestAnimationFrame(() => setTimeout(finish, 0));
  });
}

/**
 * Resolves once the browser has drawn the next frame and has a moment to spare (at most
 * `maxWaitMs` later), or at once where there are no frames. For work nobody waits for: a busy
 * page, such as one the user is typing into quickly on a slow machine, runs it between keys.
 */
export async function afterPaintAndIdle(maxWaitMs: number): Promise<void> {
  await afterNextPaint();
  if (typeof requestIdleCallback === 'undefined') return;
  await new Promise<void>((resolve) =>
    requestIdleCallback(() => resolve(), { timeout: maxWaitMs }),
  );
}
