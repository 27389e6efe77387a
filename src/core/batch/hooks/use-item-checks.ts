import { useEffect, useMemo, useState } from 'react';
import type { BatchKind, WireItem } from '@/core/batch/model/batch-kind';
import { itemIssues } from '@/core/batch/model/result-fields';
import type { DateFormat } from '@/domain';

const noProblems: readonly string[] = Object.freeze([]);
/** Up to this many unchecked items are checked at once; more (a tray just loaded) in the background. */
const checkedAtOnce = 20;

/** Each payload's own problems, per kind and date format, kept as long as the payload object is. */
const ownProblems = new WeakMap<BatchKind, Map<DateFormat, WeakMap<WireItem, readonly string[]>>>();

function cacheFor(kind: BatchKind, dateFormat: DateFormat): WeakMap<WireItem, readonly string[]> {
  let byFormat = ownProblems.get(kind);
  if (!byFormat) ownProblems.set(kind, (byFormat = new Map()));
  let cache = byFormat.get(dateFormat);
  if (!cache) byFormat.set(dateFormat, (cache = new WeakMap()));
  return cache;
}

function check(kind: BatchKind, wires: readonly WireItem[], dateFormat: DateFormat): void {
  const cache = cacheFor(kind, dateFormat);
  for (const wire of wires) {
    if (cache.has(wire)) continue;
    const messages = itemIssues(kind, wire, dateFormat).map((issue) => issue.message);
    cache.set(wire, messages.length === 0 ? noProblems : messages);
  }
}

/** A background slice of checking stops after this long, so the page keeps drawing and answering. */
const sliceMs = 8;

/**
 * Each tray item's problems (its own validation, then problems across items such as a duplicate
 * reference), or null while it is still being checked. An item is validated once per version of
 * its payload: the result is kept with the payload object, which the tray replaces on every edit
 * and otherwise keeps, so a change to one item of 500 validates one item, and unchanged results
 * keep their identity (their rows do not re-render). A tray just loaded with many items is shown
 * at once and checked after the page has painted, in slices of a few milliseconds (one long
 * task of 500 validations held up the page's first paint); until then its items read "Checking"
 * and it cannot be sent.
 */
export function useItemChecks(
  kind: BatchKind,
  wires: readonly WireItem[],
  dateFormat: DateFormat,
): ReadonlyArray<readonly string[] | null> {
  const [checkedRound, setCheckedRound] = useState(0);
  useEffect(() => {
    const cache = cacheFor(kind, dateFormat);
    if (wires.every((wire) => cache.has(wire))) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slice = () => {
      const started = performance.now();
      for (const wire of wires) {
        if (cache.has(wire)) continue;
        check(kind, [wire], dateFormat);
        if (performance.now() - started > sliceMs) {
          timer = setTimeout(slice, 0);
          return;
        }
      }
      setCheckedRound((round) => round + 1);
    };
    // After the next frame, so the tray's first paint never waits for its checks.
    const frame = requestAnimationFrame(() => (timer = setTimeout(slice, 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [kind, wires, dateFormat]);
  return useMemo(() => {
    const cache = cacheFor(kind, dateFormat);
    const unchecked = wires.filter((wire) => !cache.has(wire));
    if (unchecked.length <= checkedAtOnce) check(kind, unchecked, dateFormat);
    const across = kind.batchProblems?.(wires) ?? new Map<number, string>();
    return wires.map((wire, index) => {
      const problems = cache.get(wire);
      if (!problems) return null;
      const acrossProblem = across.get(index);
      return acrossProblem ? [...problems, acrossProblem] : problems;
    });
    // checkedRound is no input of the body: it says the background slices have filled the cache.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, wires, dateFormat, checkedRound]);
}
