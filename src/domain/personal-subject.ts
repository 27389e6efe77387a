import { z } from 'zod';
import type { PersonalKind } from './catalog-types';
import { erasedPlaceholder, personalFields } from './personal-data';

/**
 * One person whose data is asked for (found, exported or erased on request): their e-mail, and
 * optionally their name. Which values are about them is read from the catalogs' `personal` marks
 * (personal-data.ts), never from a list of field names of its own.
 */
export interface PersonalSubject {
  email: string;
  /** First and last name, when known: items naming them without their e-mail are theirs too. */
  name?: { first: string; last: string } | undefined;
}

/** What a body holds about a person: whole items, and mentions of them in plain text elsewhere. */
export interface SubjectMatches {
  /** The items (objects with personal fields) that are about the person, as they are in the body. */
  items: unknown[];
  /** How often the e-mail or the name appears as text outside those items' fields. */
  mentions: number;
}

/** A person's name from what an admin typed: the first word, then the rest; undefined when blank. */
export function subjectName(text: string | undefined): PersonalSubject['name'] {
  const words = (text ?? '').trim().split(/\s+/u).filter(Boolean);
  if (words.length < 2) return undefined;
  return { first: words[0] ?? '', last: words.slice(1).join(' ') };
}

const fieldKinds: ReadonlyMap<string, PersonalKind> = new Map(
  [...personalFields].map(([key, kind]) => [key.toLowerCase(), kind]),
);

/**
 * The name fields that go together, by the part of the key before `firstname`/`lastname`: the
 * candidate's own (`firstname`, `lastname`) and each person a requisition names
 * (`clientcontactfirstname`, …). A name is theirs when both halves are.
 */
const namePrefixes: readonly string[] = [...fieldKinds]
  .filter(([key, kind]) => kind === 'name' && key.endsWith('firstname'))
  .map(([key]) => key.slice(0, -'firstname'.length))
  .filter((prefix) => fieldKinds.get(`${prefix}lastname`) === 'name');

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const same = (a: unknown, b: string) =>
  typeof a === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

/** A key's personal kind, whatever its case (the VMS's answers are not always lower case). */
function kindOf(key: string): PersonalKind | undefined {
  return fieldKinds.get(key.toLowerCase());
}

function hasPersonalField(item: JsonObject): boolean {
  return Object.keys(item).some((key) => kindOf(key) !== undefined);
}

/** Whether an item is about the person: its e-mail is theirs, or (with a name) a name pair is. */
function isAbout(item: JsonObject, subject: PersonalSubject): boolean {
  const lower = new Map(Object.entries(item).map(([key, value]) => [key.toLowerCase(), value]));
  for (const [key, value] of lower) {
    if (fieldKinds.get(key) === 'email' && same(value, subject.email)) return true;
  }
  const name = subject.name;
  if (!name) return false;
  return namePrefixes.some(
    (prefix) =>
      same(lower.get(`${prefix}firstname`), name.first) &&
      same(lower.get(`${prefix}lastname`), name.last),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/**
 * The ways the person appears in plain text: the e-mail, the name in either order ("Jane Doe",
 * "Doe, Jane"), any case, any spacing between the words.
 */
function mentionPattern(subject: PersonalSubject, loose = false): RegExp {
  const words = (text: string) => text.trim().split(/\s+/u).map(escapeRegExp).join('\\s+');
  const forms = [escapeRegExp(subject.email.trim())];
  if (subject.name) {
    const { first, last } = subject.name;
    forms.push(`${words(first)}\\s+${words(last)}`, `${words(last)},?\\s+${words(first)}`);
    // Text that is not JSON (a body cut to the journal's limit) has no fields to pair the halves
    // of a name by, so each half is a mention on its own, as a whole word.
    if (loose)
      forms.push(`(?<![\\p{L}\\p{N}])(?:${words(first)}|${words(last)})(?![\\p{L}\\p{N}])`);
  }
  return new RegExp(forms.join('|'), 'giu');
}

interface Walk {
  subject: PersonalSubject;
  pattern: RegExp;
  /** The placeholder personal values become; absent when only finding. */
  placeholder?: string;
  items: unknown[];
  mentions: number;
}

function mentionsIn(text: string, walk: Walk): string {
  const replaced = text.replace(walk.pattern, () => {
    walk.mentions += 1;
    return walk.placeholder ?? '';
  });
  return walk.placeholder === undefined ? text : replaced;
}

/** Walks a parsed body: finds the person's items, and (erasing) gives back the body rewritten. */
function visit(value: unknown, walk: Walk): unknown {
  if (typeof value === 'string') return mentionsIn(value, walk);
  if (Array.isArray(value)) return value.map((entry) => visit(entry, walk));
  if (!isObject(value)) return value;
  const theirs = hasPersonalField(value) && isAbout(value, walk.subject);
  if (theirs) walk.items.push(value);
  const out: JsonObject = {};
  for (const [key, entry] of Object.entries(value)) {
    const personal = theirs && kindOf(key) !== undefined && entry !== null && entry !== '';
    if (personal && walk.placeholder !== undefined) out[key] = walk.placeholder;
    else if (personal) out[key] = entry;
    else out[key] = visit(entry, walk);
  }
  return out;
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // A body cut to the journal's limit, or not JSON at all: read as plain text.
    return { ok: false };
  }
}

/** What a body holds about the person: their items, and how often they are mentioned elsewhere. */
export function findSubject(text: string, subject: PersonalSubject): SubjectMatches {
  const body = parsed(text);
  const walk: Walk = {
    subject,
    pattern: mentionPattern(subject, !body.ok),
    items: [],
    mentions: 0,
  };
  if (body.ok) visit(body.value, walk);
  else mentionsIn(text, walk);
  return { items: walk.items, mentions: walk.mentions };
}

/** A body with the person erased, and what was erased; `text` is unchanged when nothing was. */
export interface ErasedBody extends SubjectMatches {
  text: string;
  changed: boolean;
}

/**
 * The body with every personal value of the person's items replaced by the placeholder, and each
 * mention of their e-mail or name elsewhere too; ids, statuses, counts and the rest stay, and JSON
 * stays valid JSON. A body that is not JSON (cut short, or text) has its mentions replaced.
 */
export function eraseSubject(text: string, subject: PersonalSubject, at: Date): ErasedBody {
  const body = parsed(text);
  const walk: Walk = {
    subject,
    pattern: mentionPattern(subject, !body.ok),
    placeholder: erasedPlaceholder(at),
    items: [],
    mentions: 0,
  };
  const rewritten = body.ok ? JSON.stringify(visit(body.value, walk)) : mentionsIn(text, walk);
  const changed = walk.items.length > 0 || walk.mentions > 0;
  return { text: changed ? rewritten : text, changed, items: walk.items, mentions: walk.mentions };
}

/** The one person an admin looks for: an e-mail, and a name when they know it. */
export const subjectQuerySchema = z.object({
  email: z
    .string()
    .trim()
    .min(3, 'Type the e-mail address of the person to look for.')
    .max(320, 'An e-mail address is at most 320 characters.')
    .refine((value) => value.includes('@'), 'That is not an e-mail address: it has no @.'),
  name: z
    .string()
    .trim()
    .max(200, 'A name is at most 200 characters.')
    .refine(
      (value) => value === '' || subjectName(value) !== undefined,
      'Type both the first and the last name, or leave the name empty.',
    )
    .optional(),
});
export type SubjectQuery = z.infer<typeof subjectQuerySchema>;

export const eraseRequestSchema = subjectQuerySchema.extend({
  reason: z
    .string()
    .trim()
    .min(5, 'Say why this person is erased (their request, its date): at least 5 characters.')
    .max(500, 'The reason is at most 500 characters.'),
});
export type EraseRequest = z.infer<typeof eraseRequestSchema>;

/** How many records of each store hold something about the person (stores with none left out). */
export const storeCountsSchema = z.record(z.string(), z.number().int().nonnegative());
export type StoreCounts = z.infer<typeof storeCountsSchema>;

export const subjectFoundSchema = z.object({ counts: storeCountsSchema });

/** One record held about the person in the subject-access export. */
export const heldRecordSchema = z.object({
  store: z.string(),
  record: z.string(),
  at: z.string(),
  /** The items about the person as the record holds them. */
  items: z.array(z.unknown()),
  /** How often their e-mail or name appears in the record's text besides. */
  mentions: z.number().int().nonnegative(),
});
export type HeldRecord = z.infer<typeof heldRecordSchema>;

export const subjectExportSchema = z.object({
  subject: z.object({ email: z.string(), name: z.string().nullable() }),
  exportedAt: z.string(),
  counts: storeCountsSchema,
  records: z.array(heldRecordSchema),
});
export type SubjectExport = z.infer<typeof subjectExportSchema>;

export const subjectErasedSchema = z.object({
  counts: storeCountsSchema,
  erasedAt: z.string(),
});
export type SubjectErased = z.infer<typeof subjectErasedSchema>;

/** The subject a query names, for finding and erasing. */
export function subjectOf(query: SubjectQuery): PersonalSubject {
  return { email: query.email, name: subjectName(query.name) };
}

export const subjectExportFormats = ['json', 'html'] as const;

/** An export names its reason too: the audit trail says who took a person's data, and why. */
export const exportRequestSchema = eraseRequestSchema.extend({
  format: z.enum(subjectExportFormats).default('json'),
});
export type ExportRequest = z.input<typeof exportRequestSchema>;
