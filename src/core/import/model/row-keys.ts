/**
 * React keys for the rows a virtualized grid draws, chosen so that scrolling moves no element:
 * a row still drawn keeps its key, and a row scrolled in takes the key of one scrolled out, the
 * first free key to the first new row. After a jump (nothing in common) every row takes the key
 * that held its place, so React updates the rows' cells in place and the rows stay where they are
 * in the document; after a small scroll only the rows scrolled in change. A row moved in the DOM
 * is laid out and styled anew, and new elements cost more again: keys by row number would build
 * every row of a jump, keys by place would rewrite every row of a one-row scroll.
 */
export interface RowKeys {
  /** The first row's position. */
  first: number;
  /** The key of each drawn row, from `first` on. */
  keys: readonly number[];
}

export const noRowKeys: RowKeys = { first: 0, keys: [] };

/** The keys for rows first…last (last < first: none), given those of the rows drawn before. */
export function nextRowKeys(before: RowKeys, first: number, last: number): RowKeys {
  const count = Math.max(0, last - first + 1);
  if (before.first === first && before.keys.length === count) return before;
  const keys: Array<number | undefined> = new Array<number | undefined>(count);
  const kept = new Set<number>();
  for (let place = 0; place < count; place += 1) {
    const key = before.keys[first + place - before.first];
    if (key !== undefined && first + place >= before.first) {
      keys[place] = key;
      kept.add(key);
    }
  }
  const free = before.keys.filter((key) => !kept.has(key));
  let fresh = before.keys.reduce((most, key) => Math.max(most, key + 1), 0);
  let nextFree = 0;
  return {
    first,
    keys: Array.from(keys, (key) => key ?? free[nextFree++] ?? fresh++),
  };
}

/**
 * The rows drawn and what each shows: its own cells once filled, else (for a frame or two after a
 * jump) the cells it showed before, hidden. A jump changes the cells of every row drawn; laying
 * them all out in one frame was the grid's longest task, so at most `perFrame` rows are filled
 * per frame, from the top. A row with no element yet is drawn filled at once (nothing to keep).
 */
export interface RowFill {
  keys: RowKeys;
  /** For each drawn row, the position whose cells it shows: its own once filled. */
  shows: readonly number[];
  /** The frame rows were last filled in, and how many then. */
  frame: number;
  filled: number;
}

export const noRowFill: RowFill = { keys: noRowKeys, shows: [], frame: -1, filled: 0 };

/** The rows first…last in `frame`: `before` when nothing changes (no new state). */
export function nextRowFill(
  before: RowFill,
  first: number,
  last: number,
  frame: number,
  perFrame: number,
): RowFill {
  const keys = nextRowKeys(before.keys, first, last);
  const showed = new Map<number, number>();
  before.keys.keys.forEach((key, place) => showed.set(key, before.shows[place] ?? -1));
  let filled = before.frame === frame ? before.filled : 0;
  let changed = keys !== before.keys;
  const shows = keys.keys.map((key, place) => {
    const own = first + place;
    const was = showed.get(key);
    // A row with other cells keeps them until this frame still has a fill to spend on it.
    let now = own;
    if (was !== undefined && was !== own) {
      if (filled < perFrame) filled += 1;
      else now = was;
    }
    if (now !== before.shows[place]) changed = true;
    return now;
  });
  return changed ? { keys, shows, frame, filled } : before;
}

/** Whether some drawn row still shows cells not its own. */
export const filling = (fill: RowFill): boolean =>
  fill.shows.some((shows, place) => shows !== fill.keys.first + place);
