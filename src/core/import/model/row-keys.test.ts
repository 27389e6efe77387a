import { describe, expect, it } from 'vitest';
import {
  filling,
  nextRowFill,
  nextRowKeys,
  noRowFill,
  noRowKeys,
  type RowFill,
  type RowKeys,
} from './row-keys';

const at = (first: number, keys: number[]): RowKeys => ({ first, keys });

describe('nextRowKeys', () => {
  it('numbers the first rows drawn from 0', () => {
    expect(nextRowKeys(noRowKeys, 0, 4)).toEqual(at(0, [0, 1, 2, 3, 4]));
  });

  it('keeps the same object when the same rows are drawn', () => {
    const keys = at(10, [3, 4, 5]);
    expect(nextRowKeys(keys, 10, 12)).toBe(keys);
  });

  it('gives the row scrolled in the key of the row scrolled out, the others keep theirs', () => {
    // Rows 10-14 → 11-15: row 10 (key 7) left, row 15 takes key 7.
    expect(nextRowKeys(at(10, [7, 8, 9, 0, 1]), 11, 15)).toEqual(at(11, [8, 9, 0, 1, 7]));
    // Up by two: rows 8 and 9 take the keys of 13 and 14, in order.
    expect(nextRowKeys(at(10, [7, 8, 9, 0, 1]), 8, 12)).toEqual(at(8, [0, 1, 7, 8, 9]));
  });

  it('after a jump gives every row the key that held its place, in the same order', () => {
    expect(nextRowKeys(at(10, [7, 8, 9, 0, 1]), 50_000, 50_004)).toEqual(
      at(50_000, [7, 8, 9, 0, 1]),
    );
  });

  it('makes new keys, unused by any row, when more rows are drawn', () => {
    const next = nextRowKeys(at(10, [7, 8, 9]), 11, 15);
    expect(next).toEqual(at(11, [8, 9, 7, 10, 11]));
    expect(new Set(next.keys).size).toBe(next.keys.length);
  });

  it('drops the keys of rows no longer drawn when fewer are', () => {
    expect(nextRowKeys(at(10, [7, 8, 9, 0, 1]), 12, 13)).toEqual(at(12, [9, 0]));
    expect(nextRowKeys(at(10, [7, 8, 9]), 0, -1)).toEqual(at(0, []));
  });

  it('never gives two drawn rows the same key, whatever the moves', () => {
    let keys = noRowKeys;
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let step = 0; step < 2_000; step += 1) {
      const first = Math.floor(random() * 1_000);
      const last = first + Math.floor(random() * 20) - 1;
      const next = nextRowKeys(keys, first, last);
      expect(next.keys).toHaveLength(Math.max(0, last - first + 1));
      expect(new Set(next.keys).size).toBe(next.keys.length);
      // Rows drawn before and now keep their keys.
      for (let row = Math.max(first, keys.first); row <= last; row += 1) {
        const before = keys.keys[row - keys.first];
        if (before !== undefined) expect(next.keys[row - first]).toBe(before);
      }
      keys = next;
    }
  });
});

describe('nextRowFill', () => {
  const fillOf = (fill: RowFill) => ({ first: fill.keys.first, shows: fill.shows });

  it('draws the first rows filled at once', () => {
    const fill = nextRowFill(noRowFill, 0, 9, 0, 4);
    expect(fillOf(fill)).toEqual({ first: 0, shows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] });
    expect(filling(fill)).toBe(false);
  });

  it('after a jump fills perFrame rows a frame, from the top, the others showing what they did', () => {
    const start = nextRowFill(noRowFill, 0, 9, 0, 4);
    const jump = nextRowFill(start, 5000, 5009, 1, 4);
    expect(jump.shows).toEqual([5000, 5001, 5002, 5003, 4, 5, 6, 7, 8, 9]);
    expect(filling(jump)).toBe(true);
    // The same frame again (a second render): nothing more is filled, and nothing changes.
    expect(nextRowFill(jump, 5000, 5009, 1, 4)).toBe(jump);
    const second = nextRowFill(jump, 5000, 5009, 2, 4);
    expect(second.shows).toEqual([5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007, 8, 9]);
    const third = nextRowFill(second, 5000, 5009, 3, 4);
    expect(third.shows).toEqual([5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009]);
    expect(filling(third)).toBe(false);
    expect(nextRowFill(third, 5000, 5009, 4, 4)).toBe(third);
  });

  it('a one-row scroll fills the row scrolled in within the frame', () => {
    const start = nextRowFill(noRowFill, 0, 9, 0, 4);
    const next = nextRowFill(start, 1, 10, 1, 4);
    expect(next.shows).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(filling(next)).toBe(false);
  });

  it('a jump during a fill keeps each row showing what it showed, and goes on filling', () => {
    const start = nextRowFill(noRowFill, 0, 5, 0, 2);
    const jump = nextRowFill(start, 100, 105, 1, 2);
    expect(jump.shows).toEqual([100, 101, 2, 3, 4, 5]);
    const again = nextRowFill(jump, 200, 205, 1, 2);
    // Same frame: its two fills are spent; every row keeps its cells, filled or not.
    expect(again.shows).toEqual([100, 101, 2, 3, 4, 5]);
    const later = nextRowFill(again, 200, 205, 2, 2);
    expect(later.shows).toEqual([200, 201, 2, 3, 4, 5]);
  });
});
