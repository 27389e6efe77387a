/**
 * A drafted profile says, beside its keys, how each was proved or that it is a guess: the
 * `$evidence` object, one line per key (or group of keys), each starting with `proved:`,
 * `guess:` or `undecided:` (the key left out, so its preset's value applies). The profile
 * reader ignores it; people and the draft's tests read it.
 */
export type Evidence = Record<string, string>;

export const proved = (line: string) => `proved: ${line}`;
export const guess = (line: string) => `guess: ${line}`;
export const undecided = (line: string) => `undecided: ${line}`;

/** How many records, in words. */
export const records = (count: number) => `${count} record${count === 1 ? '' : 's'}`;
