import type { JournalSettings } from '@/server/config';
import { pruneInSteps, retentionChunk as pruneChunk } from '@/server/store/retention';
import type { JournalStore } from './store/journal-store';

/**
 * Retention (decision 025): calls older than JOURNAL_RETENTION_DAYS, then the oldest calls until
 * the database uses at most 90 % of JOURNAL_MAX_MB (room to grow before the next run). In chunks,
 * yielding to calls between them. Throws what the store throws.
 */
export async function pruneJournal(
  store: JournalStore,
  settings: JournalSettings,
  now: number,
): Promise<void> {
  const yieldTurn = () => new Promise((resolve) => setImmediate(resolve));
  await pruneInSteps(
    (cutoff, limit) => store.pruneReceivedBefore(cutoff, limit),
    now - settings.retentionMs,
  );
  const target = settings.maxBytes * 0.9;
  let used = await store.usedBytes();
  if (used <= settings.maxBytes) return;
  // The used size falls as calls go, with their bodies and most of their search index (FTS5
  // gives some back only when it merges segments later). Each round drops a share of the oldest
  // calls estimated from the excess, at most a tenth of them, and measures again; three rounds
  // that give nothing back end it, so space slow to come back never costs the whole journal.
  let fruitless = 0;
  while (used > target && fruitless < 3) {
    const calls = await store.count();
    if (calls === 0) break;
    const excess = Math.ceil(((used - target) / used) * calls);
    const share = Math.min(pruneChunk, Math.ceil(calls / 10), Math.max(1, excess));
    await store.pruneOldest(share);
    const after = await store.usedBytes();
    fruitless = after < used ? 0 : fruitless + 1;
    used = after;
    await yieldTurn();
  }
}
