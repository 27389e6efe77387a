import { describe, expect, it } from 'vitest';
import { bodyVectors, overlap, partWords, searchWords, termQuery } from './journal-words';

describe('search words for PostgreSQL', () => {
  it('splits as FTS5 unicode61 does: letters and digits, lower case, without diacritics', () => {
    expect(searchWords('{"ErrorMessage":"Zürich is not a location"}')).toEqual([
      'errormessage',
      'zurich',
      'is',
      'not',
      'a',
      'location',
    ]);
    expect(searchWords('REQ-2026-0042 rb_4 vms.example/api 12.5 a@b.c')).toEqual([
      'req',
      '2026',
      '0042',
      'rb',
      '4',
      'vms',
      'example',
      'api',
      '12',
      '5',
      'a',
      'b',
      'c',
    ]);
    // Decomposed or not, an accented letter is its letter; other scripts are words too.
    expect(searchWords('Zu\u0308rich ÉCOLE Straße Ünïcödé 東京 Ωμέγα')).toEqual([
      'zurich',
      'ecole',
      'straße',
      'unicode',
      '東京',
      'ωμεγα',
    ]);
    expect(searchWords('" * () -- ..')).toEqual([]);
  });

  it('keeps the first 500 characters of a word too long for a tsvector', () => {
    expect(searchWords(`x ${'a'.repeat(3000)} y`)).toEqual(['x', 'a'.repeat(500), 'y']);
  });

  it('indexes a body in overlapping parts, so every phrase of up to 33 words lies in one', () => {
    expect(bodyVectors('')).toEqual([]);
    expect(bodyVectors('Zürich, ZURICH and Lyon')).toEqual(["'zurich':1,2 'and':3 'lyon':4"]);
    const words = Array.from({ length: 2000 }, (_, i) => `w${i}`);
    const vectors = bodyVectors(words.join(' '));
    const stride = partWords - overlap;
    expect(vectors).toHaveLength(Math.ceil((words.length - overlap) / stride));
    const parts = vectors.map((vector) => vector.split(' ').map((entry) => entry.split(':')[0]));
    for (let start = 0; start + overlap + 1 <= words.length; start += 1) {
      const phrase = words.slice(start, start + overlap + 1).map((word) => `'${word}'`);
      expect(
        parts.some((part) => phrase.every((word) => part.includes(word))),
        `the phrase from word ${start}`,
      ).toBe(true);
    }
  });

  it('gives a word at most 256 positions in a part, as a tsvector takes them', () => {
    const [vector] = bodyVectors('a '.repeat(300));
    expect(vector?.split(',')).toHaveLength(256);
  });

  it('makes a term a phrase of its words, the last one a prefix after *', () => {
    expect(termQuery({ text: 'REQ-2026-0042', prefix: false })).toBe("'req' <-> '2026' <-> '0042'");
    expect(termQuery({ text: 'REQ-2026', prefix: true })).toBe("'req' <-> '2026':*");
    expect(termQuery({ text: 'Zürich', prefix: false })).toBe("'zurich'");
    expect(termQuery({ text: '"-()', prefix: true })).toBeNull();
  });
});
