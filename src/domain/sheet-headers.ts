import type { FieldDef } from './catalog-types';

/**
 * A sheet's headers matched to a kind's catalog fields: by wire name, label, alias or a row's
 * number, or as a saved mapping says (part of spreadsheet.ts's reading of rows).
 */

/** `Job title`, `job_title`, `JobTitle` → `jobtitle`: case, spaces and punctuation ignored. */
export function normalizeHeader(header: string): string {
  return header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** How a header was matched, for the user to see (and correct). */
/** 'mapping': chosen in a saved template or by the user, not matched. */
export type HeaderMatch = 'wire name' | 'label' | 'alias' | 'mapping';

export interface MappedColumn {
  /** The column's position in the file (0-based). */
  column: number;
  header: string;
  /** The wire key it fills; null when the header names no field, or one already taken. */
  key: string | null;
  match: HeaderMatch | null;
  /** Why a header is not used, when it is not. */
  note?: string;
}

/**
 * Other names people give fields in their sheets, by wire key. Small on purpose: a header the
 * catalog does not know is offered to the user to map by hand, never guessed.
 */
export const headerAliases: Readonly<Record<string, readonly string[]>> = {
  titlerole: ['title', 'jobtitle', 'position', 'role'],
  clientinternalreq: ['reqnumber', 'requisitionnumber', 'clientreq', 'reference'],
  noofopenings: ['openings', 'numberofopenings', 'positions', 'headcount'],
  candemail: ['email', 'emailaddress'],
  firstname: ['givenname'],
  lastname: ['surname', 'familyname'],
  requirementid: ['reqid', 'requisitionid'],
};

/** What a row of each group is called in a sheet: "Skill 3 response" answers skill 3. */
const rowNouns: Readonly<Record<string, string>> = {
  skills: 'skill',
  questions: 'question',
  skillResponses: 'skill',
  answers: 'question',
};

/**
 * Row fields also match by number in either place: `skill3description` for `skilldescription3`,
 * "Skill 3 response" and "Question 2 answer" for a candidate's response to skill 3 and answer 2.
 */
function numberedVariants(def: FieldDef): string[] {
  if (!def.row) return [];
  const { n, part, group } = def.row;
  const noun = rowNouns[group] ?? group.replace(/s$/, '');
  return [`${noun}${n}${part}`, `${part}${noun}${n}`];
}

/** The names each field answers to, normalized, most exact first. */
function namesOf(catalog: readonly FieldDef[]): Map<string, { key: string; match: HeaderMatch }> {
  const names = new Map<string, { key: string; match: HeaderMatch }>();
  const add = (name: string, key: string, match: HeaderMatch) => {
    const normalized = normalizeHeader(name);
    if (normalized !== '' && !names.has(normalized)) names.set(normalized, { key, match });
  };
  // The wire name first (its PascalCase form, as GET Requisitions spells it, normalizes alike).
  for (const def of catalog) add(def.key, def.key, 'wire name');
  for (const def of catalog) add(def.label, def.key, 'label');
  for (const def of catalog) for (const name of numberedVariants(def)) add(name, def.key, 'alias');
  for (const [key, aliases] of Object.entries(headerAliases)) {
    if (catalog.some((def) => def.key === key))
      for (const alias of aliases) add(alias, key, 'alias');
  }
  return names;
}

/**
 * Matches each header to a field: by wire name (`titlerole`, `TitleRole`), by label ("Job
 * title"), or by an alias or a row's number (`Skill 3 description`). `mapping` (a saved template,
 * header → wire key, '' to ignore) wins over matching. A field claimed by an earlier column is
 * not filled twice.
 */
export function mapHeaders(
  headers: readonly string[],
  catalog: readonly FieldDef[],
  mapping: Readonly<Record<string, string>> = {},
): MappedColumn[] {
  const names = namesOf(catalog);
  const known = new Set(catalog.map((def) => def.key));
  const taken = new Map<string, string>();
  return headers.map((header, column): MappedColumn => {
    const chosen = mapping[header];
    const found =
      chosen !== undefined
        ? chosen === ''
          ? null
          : known.has(chosen)
            ? { key: chosen, match: 'mapping' as const }
            : null
        : (names.get(normalizeHeader(header)) ?? null);
    if (!found) {
      return {
        column,
        header,
        key: null,
        match: null,
        note:
          chosen === ''
            ? 'ignored by the mapping'
            : chosen !== undefined
              ? `the mapping names ${chosen}, which is not a field`
              : 'names no field',
      };
    }
    const earlier = taken.get(found.key);
    if (earlier !== undefined) {
      return {
        column,
        header,
        key: null,
        match: null,
        note: `${found.key} is already filled from column “${earlier}”`,
      };
    }
    taken.set(found.key, header);
    return { column, header, key: found.key, match: found.match };
  });
}
