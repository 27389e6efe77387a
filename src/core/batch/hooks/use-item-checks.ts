import { useMemo } from 'react';
import type { DateFormat } from '../../../domain';
import type { BatchKind, WireItem } from '../model/batch-kind';

const noProblems: readonly string[] = Object.freeze([]);

/** Each payload's own problems, per kind and date format, kept as long as the payload object is. */
const ownProblems = new WeakMap<BatchKind, Map<DateFormat, WeakMap<WireItem, readonly string[]>>>();

function problemsOf(kind: BatchKind, wire: WireItem, dateFormat: DateFormat): readonly string[] {
  let byFormat = ownProblems.get(kind);
  if (!byFormat) ownProblems.set(kind, (byFormat = new Map()));
  let cache = byFormat.get(dateFormat);
  if (!cache) byFormat.set(dateFormat, (cache = new WeakMap()));
  let problems = cache.get(wire);
  if (!problems) {
    const messages = kind.validate(wire, dateFormat).map((issue) => issue.message);
    problems = messages.length === 0 ? noProblems : messages;
    cache.set(wire, problems);
  }
  return problems;
}

/**
 * Each tray item's problems (its own validation, then problems across items such as a duplicate
 * reference). An item is validated once per version of its payload: the result is kept with the
 * payload object, which the tray replaces on every edit and otherwise keeps, so a change to one
 * item of 500 validates one item. Unchanged results keep their identity, so their rows need not
 * re-render.
 */
export function useItemChecks(
  kind: BatchKind,
  wires: readonly WireItem[],
  dateFormat: DateFormat,
): ReadonlyArray<readonly string[]> {
  return useMemo(() => {
    const across = kind.batchProblems?.(wires) ?? new Map<number, string>();
    return wires.map((wire, index) => {
      const problems = problemsOf(kind, wire, dateFormat);
      const acrossProblem = across.get(index);
      return acrossProblem ? [...problems, acrossProblem] : problems;
    });
  }, [kind, wires, dateFormat]);
}
