import {
  freeCaseId,
  renameCase,
  suiteSchema,
  type Suite,
  type SuiteCase,
} from '@/domain/suite-cases';

/**
 * A suite as its page edits it (decision 038): the name and the cases, each with a key of its own
 * that stays while its id is edited (the list's rows, the problems' links). Nothing is saved
 * until the page saves a new version; the file's rules (docs/suite.schema.json, the domain's
 * schema) judge the draft as it is.
 */
export interface DraftCase {
  key: string;
  value: SuiteCase;
}

export interface SuiteDraft {
  name: string;
  cases: DraftCase[];
}

export type DraftAction =
  | { type: 'load'; suite: Suite; keyOf: () => string }
  | { type: 'rename-suite'; name: string }
  | { type: 'change'; key: string; change: Partial<Omit<SuiteCase, 'id'>> }
  | { type: 'change-id'; key: string; id: string }
  | { type: 'move'; key: string; by: -1 | 1 }
  | { type: 'duplicate'; key: string; newKey: string }
  | { type: 'delete'; key: string }
  | { type: 'add'; value: SuiteCase; key: string };

export function draftOf(suite: Suite, keyOf: () => string): SuiteDraft {
  return { name: suite.name, cases: suite.cases.map((value) => ({ key: keyOf(), value })) };
}

/** The draft as a suite file. */
export function suiteOf(draft: SuiteDraft): Suite {
  return { name: draft.name, cases: draft.cases.map((entry) => entry.value) };
}

export function draftReducer(draft: SuiteDraft, action: DraftAction): SuiteDraft {
  const at = 'key' in action ? draft.cases.findIndex((entry) => entry.key === action.key) : -1;
  switch (action.type) {
    case 'load':
      return draftOf(action.suite, action.keyOf);
    case 'rename-suite':
      return { ...draft, name: action.name };
    case 'change':
      return {
        ...draft,
        cases: draft.cases.map((entry) =>
          entry.key === action.key
            ? { ...entry, value: { ...entry.value, ...action.change } }
            : entry,
        ),
      };
    case 'change-id': {
      // References to the case follow its new id.
      const from = draft.cases[at]?.value.id;
      if (from === undefined) return draft;
      const renamed = renameCase(
        draft.cases.map((entry) => entry.value),
        from,
        action.id,
      );
      return {
        ...draft,
        cases: draft.cases.map((entry, index) => ({
          key: entry.key,
          value:
            index === at
              ? { ...(renamed[index] as SuiteCase), id: action.id }
              : (renamed[index] as SuiteCase),
        })),
      };
    }
    case 'move': {
      const to = at + action.by;
      if (at < 0 || to < 0 || to >= draft.cases.length) return draft;
      const cases = [...draft.cases];
      const [moved] = cases.splice(at, 1);
      if (moved) cases.splice(to, 0, moved);
      return { ...draft, cases };
    }
    case 'duplicate': {
      const original = draft.cases[at];
      if (!original) return draft;
      const taken = new Set(draft.cases.map((entry) => entry.value.id));
      const copy: DraftCase = {
        key: action.newKey,
        value: {
          ...original.value,
          id: freeCaseId(original.value.id, taken),
          name: `${original.value.name ?? original.value.id} (copy)`.slice(0, 200),
          item: { ...original.value.item },
        },
      };
      return {
        ...draft,
        cases: [...draft.cases.slice(0, at + 1), copy, ...draft.cases.slice(at + 1)],
      };
    }
    case 'delete':
      return { ...draft, cases: draft.cases.filter((entry) => entry.key !== action.key) };
    case 'add':
      return { ...draft, cases: [...draft.cases, { key: action.key, value: action.value }] };
  }
}

/** A problem with the draft, and the case it is in (its key), if any. */
export interface DraftProblem {
  key: string | null;
  message: string;
}

/** What keeps the draft from being saved, by the suite file's own rules; none when it may be. */
export function draftProblems(draft: SuiteDraft): DraftProblem[] {
  const parsed = suiteSchema.safeParse(suiteOf(draft));
  if (parsed.success) return [];
  // In the order of the cases, as the page lists them.
  const caseIndex = (path: readonly PropertyKey[]) =>
    path[0] === 'cases' && typeof path[1] === 'number' ? path[1] : -1;
  const issues = [...parsed.error.issues].sort((a, b) => caseIndex(a.path) - caseIndex(b.path));
  return issues.map((issue) => {
    const [first, index, ...rest] = issue.path;
    if (first === 'cases' && typeof index === 'number') {
      const entry = draft.cases[index];
      const where = rest.length > 0 ? ` (${rest.join('.')})` : '';
      return {
        key: entry?.key ?? null,
        message: `Case ${index + 1}${entry ? ` “${entry.value.id}”` : ''}${where}: ${issue.message}`,
      };
    }
    if (first === 'cases') return { key: null, message: 'A suite needs at least one case.' };
    if (first === 'name') return { key: null, message: `The suite’s name: ${issue.message}` };
    return { key: null, message: issue.message };
  });
}

/**
 * A case's item from the JSON typed for it: an object of text values, or why it is not one.
 */
export function itemFromText(text: string): { item: Record<string, string> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'This is not JSON: write the item as {"field": "value", …}.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'An item is one JSON object, {"field": "value", …}, not a list or a value.' };
  }
  const notText = Object.entries(value).find(([, entry]) => typeof entry !== 'string');
  if (notText) {
    return {
      problem: `${notText[0]} is not text: write every value in quotes, as the VMS is sent them ("2", not 2).`,
    };
  }
  return { item: value as Record<string, string> };
}
