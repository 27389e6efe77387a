import { describe, expect, it } from 'vitest';
import { jsonExcerpt, shownJsonChars } from './json-preview';

describe('a long JSON shown in part', () => {
  it('shows a short JSON whole', () => {
    expect(jsonExcerpt('[\n  1\n]')).toEqual({ shown: '[\n  1\n]', hiddenLines: 0 });
  });

  it('cuts a long one at a line end within the limit and counts the lines left out', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `  "line ${i}",`);
    const text = lines.join('\n');
    const { shown, hiddenLines } = jsonExcerpt(text);
    expect(shown.length).toBeLessThanOrEqual(shownJsonChars);
    expect(text.startsWith(`${shown}\n`)).toBe(true);
    const shownLines = shown.split('\n').length;
    expect(shownLines + hiddenLines).toBe(20_000);
    expect(shown.split('\n').at(-1)).toBe(lines[shownLines - 1]);
  });
});
