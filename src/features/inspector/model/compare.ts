import { structuredPatch } from 'diff';
import type { JournalBody } from '@/domain/journal';
import { prettyBody } from './replay';

/**
 * A replay beside its original: the two bodies as the inspector shows them (JSON indented, so a
 * changed value is a changed line), compared line by line, with a few unchanged lines around
 * each change. Only the changes are shown: a batch of hundreds of items that differs in one value
 * is one short hunk.
 */

export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export interface DiffHunk {
  /** Where it starts in each, counted from 1, and how many lines it spans there. */
  original: { start: number; lines: number };
  replay: { start: number; lines: number };
  lines: DiffLine[];
}

export type BodyComparison =
  | { kind: 'same' }
  | { kind: 'different'; hunks: DiffHunk[] }
  /** Too many changes to find in time (two unrelated bodies of thousands of lines). */
  | { kind: 'too-different' };

/** Unchanged lines shown around a change. */
const context = 3;
/** Longest the comparison may take, so the page stays responsive with large bodies. */
const timeoutMs = 1500;

/** A body as compared: as shown, or a line saying there is none. */
export function comparedText(body: JournalBody | null): string {
  return body === null ? '(no body)\n' : `${prettyBody(body)}\n`;
}

const kinds = { ' ': 'same', '+': 'added', '-': 'removed' } as const;

export function compareBodies(
  original: JournalBody | null,
  replay: JournalBody | null,
): BodyComparison {
  const before = comparedText(original);
  const after = comparedText(replay);
  if (before === after) return { kind: 'same' };
  const patch = structuredPatch('original', 'replay', before, after, undefined, undefined, {
    context,
    timeout: timeoutMs,
  });
  if (patch === undefined) return { kind: 'too-different' };
  return {
    kind: 'different',
    hunks: patch.hunks.map((hunk) => ({
      original: { start: hunk.oldStart, lines: hunk.oldLines },
      replay: { start: hunk.newStart, lines: hunk.newLines },
      lines: hunk.lines
        // "\ No newline at end of file": every compared text ends in one.
        .filter((line) => line[0] !== '\\')
        .map((line) => ({
          kind: kinds[line[0] as keyof typeof kinds] ?? 'same',
          text: line.slice(1),
        })),
    })),
  };
}
