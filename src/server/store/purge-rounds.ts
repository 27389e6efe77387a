import type { FastifyBaseLogger } from 'fastify';

/**
 * A purge of what has ended, run at once and then every `everyMs` (the timer keeps no process
 * alive). A failed round is logged as `failure`, with its reason cut short, and left to the next
 * round; `first` resolves when the first round is over, whether it purged or not. `stop` ends the
 * rounds.
 */
export function purgeRounds({
  everyMs,
  log,
  failure,
  purge,
}: {
  everyMs: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
  failure: string;
  purge(): Promise<unknown>;
}): { first: Promise<void>; stop(): void } {
  const round = () => warnOnFailure(purge, log, failure);
  const timer = setInterval(() => void round(), everyMs);
  timer.unref();
  return { first: round(), stop: () => clearInterval(timer) };
}

/**
 * Runs `work`, logging a failure as `failure` with its reason cut short instead of throwing: for
 * rounds that the next round repeats.
 */
export async function warnOnFailure(
  work: () => Promise<unknown>,
  log: Pick<FastifyBaseLogger, 'warn'>,
  failure: string,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    log.warn({ reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown' }, failure);
  }
}
