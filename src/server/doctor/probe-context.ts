import type { ProbeAnswer, ProbeClient } from './probe-client';
import { isRecord } from './probe-outcome';
import type { JsonRecord } from './record-checks';
import type { DoctorTarget } from './target';

/** What every probe is given, and what earlier probes learnt that later ones need. */
export interface ProbeContext {
  target: DoctorTarget;
  client: ProbeClient;
  now: () => number;
  reachable?: ProbeAnswer;
  clockSkewSeconds?: number;
  records?: JsonRecord[];
}

/** An array somewhere near the top of a body, as a hint for `list.records` / `results.*.rows`. */
export function arrayPointer(body: unknown, depth = 0): string | null {
  if (Array.isArray(body)) return '';
  if (!isRecord(body) || depth > 2) return null;
  for (const [key, value] of Object.entries(body)) {
    const below = arrayPointer(value, depth + 1);
    if (below !== null) return `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}${below}`;
  }
  return null;
}
