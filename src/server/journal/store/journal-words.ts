import type { SearchTerm } from './journal-search';

/**
 * The journal's search words for PostgreSQL (decision 025). Its store does not let PostgreSQL's
 * parser split the bodies: that parser reads `vms.example`, `/api/vms/x`, `a@b.c` or `12.5` as one
 * token each, where SQLite's FTS5 (`unicode61 remove_diacritics 2`) finds two or more. The words
 * are split here by FTS5's rules instead, for the bodies and the searches alike, and given to
 * PostgreSQL as ready tsvector and tsquery values: both stores find the same calls, no text search
 * configuration or `unaccent` extension is needed, and the database's locale does not matter.
 */

/**
 * A word as unicode61 reads one: a letter, digit or private-use character, then more of those or
 * combining marks (a diacritic goes on its letter's word; https://sqlite.org/fts5.html#unicode61_tokenizer).
 */
const wordPattern = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{Mn}]*/gu;
const marks = /\p{Mn}/gu;
const beyondAscii = /[^\p{ASCII}]/u;

/**
 * The longest word kept: a tsvector refuses a lexeme past 2046 bytes. A search's words are at most
 * 500 characters (its `q`), so no search can tell a longer word from its first 500 characters.
 */
const longestWord = 500;

/** The words of a text: lower case, diacritics removed ("Zürich" is "zurich"). */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  // Decomposed once for the whole text, so each accented letter is its letter and a mark.
  for (const [match] of text.toLowerCase().normalize('NFD').matchAll(wordPattern)) {
    const word = beyondAscii.test(match) ? match.replace(marks, '') : match;
    words.push(word.length > longestWord ? word.slice(0, longestWord) : word);
  }
  return words;
}

/**
 * Words per part of a body. A tsvector keeps at most 256 positions of a word and none past 16383,
 * so one vector for a large body would lose phrases: in a batch of 500 requisitions "req" comes
 * 500 times, and REQ-2026-0420 would no longer match. A body is indexed in parts of `partWords`
 * words instead, each overlapping the next by `overlap`, so a phrase of up to `overlap + 1` words
 * lies whole in some part; a search matches a body when each of its terms matches one of its parts.
 */
export const partWords = 512;
export const overlap = 32;

/** Most positions a tsvector keeps for one word. */
const positionsPerWord = 256;

function lexeme(word: string): string {
  // Words hold only letters, digits and the like; quoted all the same, as tsvector input wants.
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** The tsvector (as PostgreSQL reads it from text) of each part of a body's text; none without words. */
export function bodyVectors(text: string): string[] {
  const words = searchWords(text);
  const vectors: string[] = [];
  for (let start = 0; start === 0 || start + overlap < words.length; start += partWords - overlap) {
    if (words.length === 0) break;
    const positions = new Map<string, number[]>();
    words.slice(start, start + partWords).forEach((word, index) => {
      const at = positions.get(word);
      if (at === undefined) positions.set(word, [index + 1]);
      else if (at.length < positionsPerWord) at.push(index + 1);
    });
    vectors.push([...positions].map(([word, at]) => `${lexeme(word)}:${at.join(',')}`).join(' '));
  }
  return vectors;
}

/**
 * The tsquery (as PostgreSQL reads it from text) of one search term: its words as a phrase, the
 * last one a prefix when the term ends in `*`. Null when the term has no word.
 */
export function termQuery(term: SearchTerm): string | null {
  const words = searchWords(term.text);
  if (words.length === 0) return null;
  return words
    .map((word, index) =>
      term.prefix && index === words.length - 1 ? `${lexeme(word)}:*` : lexeme(word),
    )
    .join(' <-> ');
}
