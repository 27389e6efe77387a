import { z } from 'zod';
import type { DateFormat } from './catalog-types';
import { formatWireDate, wireDateToIso } from './dates';
import { addFormIssues } from './field-issue';
import { isBlank } from './field-rules';
import { blankStrings, scalarKeysOf, stringFields } from './form-model';
import type { RequisitionChoiceKey } from './requisition-alternatives';
import { requisitionAlternatives } from './requisition-alternatives';
import type { QuestionKey, RequisitionWireKey, SkillKey } from './requisition-catalog';
import {
  MAX_QUESTIONS,
  MAX_SKILLS,
  requisitionCatalog,
  requisitionField,
  skillRowParts,
} from './requisition-catalog';
import type { RequisitionWire } from './requisition-wire';
import {
  blankRequisitionWire,
  questionRowKeys,
  skillRowKeys,
  validateRequisitionItem,
} from './requisition-wire';

/**
 * The requisition form model: what the form edits. Scalar fields keep their wire names and hold
 * strings as typed (dates as native `YYYY-MM-DD`); skills and questions are arrays of rows whose
 * sequence numbers come from their order; each either/or pair carries which alternative is used.
 */
export type RequisitionScalarKey = Exclude<RequisitionWireKey, SkillKey | QuestionKey>;

const scalarKeys = scalarKeysOf<RequisitionScalarKey>(requisitionCatalog);

const dateKeys = requisitionCatalog
  .filter((f) => f.type === 'DATE')
  .map((f) => f.key as RequisitionScalarKey);

export const skillRowSchema = z.object(stringFields(skillRowParts));
export const questionRowSchema = z.object({ description: z.string() });
export type SkillRow = z.infer<typeof skillRowSchema>;
export type QuestionRow = z.infer<typeof questionRowSchema>;

type Group = (typeof requisitionAlternatives)[number];
type ChoiceKey = RequisitionChoiceKey;
type Choices = { [G in Group as G['choice']]: G['options'][number]['value'] };

/** A value for each choice, computed from its group. */
function perChoice<T>(value: (group: Group) => T): Record<ChoiceKey, T> {
  const result = {} as Record<ChoiceKey, T>; // every choice is set below
  for (const group of requisitionAlternatives) result[group.choice] = value(group);
  return result;
}

/** Each choice's schema, typed by its own two values (so the form's type is exact). */
type ChoiceSchemas = {
  [G in Group as G['choice']]: z.ZodEnum<{ [V in G['options'][number]['value']]: V }>;
};
const choiceSchemas = perChoice((group) =>
  z.enum([group.options[0].value, group.options[1].value]),
) as ChoiceSchemas; // perChoice builds one entry per group, each from that group's values
const choiceKeys: ChoiceKey[] = requisitionAlternatives.map((group) => group.choice);

/** Either/or choices (spec rules 1, 3, 8): for each, the wire keys of each alternative. */
export const requisitionChoices: Record<
  ChoiceKey,
  Record<string, readonly RequisitionWireKey[]>
> = perChoice((group) =>
  Object.fromEntries(group.options.map((option) => [option.value, option.keys])),
);

/** Flattened once: each alternative of each choice with its keys. */
const alternatives = choiceKeys.flatMap((choice) =>
  Object.entries(requisitionChoices[choice]).map(([alternative, keys]) => ({
    choice,
    alternative,
    keys,
  })),
);

export type RequisitionForm = Record<RequisitionScalarKey, string> &
  Choices & { skills: SkillRow[]; questions: QuestionRow[] };

/** Each choice starts on its first alternative. */
const defaultChoices = perChoice((group) => group.options[0].value) as Choices; // per group

export function blankSkillRow(): SkillRow {
  return blankStrings(skillRowParts);
}

/** A new, empty form (every field has a default value, as react-hook-form wants). */
export function requisitionFormDefaults(requesttype: 'I' | 'A' = 'I'): RequisitionForm {
  const scalars = blankStrings(scalarKeys);
  return { ...scalars, ...defaultChoices, requesttype, skills: [], questions: [] };
}

/**
 * Form → the wire object exactly as sent (decision 000): every key, blanks as '', rows numbered.
 *
 */
export function requisitionFormToWire(
  form: RequisitionForm,
  dateFormat: DateFormat,
): RequisitionWire {
  const wire = blankRequisitionWire();
  for (const key of scalarKeys) wire[key] = (form[key] ?? '').trim();
  for (const key of dateKeys) wire[key] = formatWireDate(wire[key], dateFormat);
  for (const { choice, alternative, keys } of alternatives) {
    if (alternative !== form[choice]) for (const key of keys) wire[key] = '';
  }
  sentRows(form.skills)
    .slice(0, MAX_SKILLS)
    .forEach((formIndex, index) => {
      const keys = skillRowKeys[index];
      const row = form.skills[formIndex];
      if (!keys || !row) return;
      wire[keys.sequence] = String(index + 1);
      for (const { part, key } of keys.parts) wire[key] = (row[part] ?? '').trim();
    });
  sentRows(form.questions)
    .slice(0, MAX_QUESTIONS)
    .forEach((formIndex, index) => {
      const keys = questionRowKeys[index];
      const row = form.questions[formIndex];
      if (!keys || !row) return;
      wire[keys.sequence] = String(index + 1);
      wire[keys.description] = (row.description ?? '').trim();
    });
  return wire;
}

/**
 * The rows of the form that are sent, by their index in the form: a row left wholly blank is
 * ignored (not an error the user would have to clear), and the rows after it move up one
 * number, as removing it would. Problems found in sent row n are shown on form row sentRows[n-1].
 */
export function sentRows(
  rows: ReadonlyArray<Readonly<Record<string, string | undefined>>>,
): number[] {
  const sent: number[] = [];
  rows.forEach((row, index) => {
    if (Object.values(row).some((value) => (value ?? '').trim() !== '')) sent.push(index);
  });
  return sent;
}

/** Wire (a file, a tray item, a GET Requisitions record mapped to wire keys) → form. */
export function requisitionWireToForm(
  wire: Partial<Record<RequisitionWireKey, string>>,
  dateFormat: DateFormat,
): RequisitionForm {
  const read = (key: RequisitionWireKey) => wire[key] ?? '';
  const form = requisitionFormDefaults(read('requesttype') === 'A' ? 'A' : 'I');
  for (const key of scalarKeys) form[key] = read(key);
  for (const key of dateKeys) form[key] = wireDateToIso(form[key], dateFormat);

  // The second alternative only when the first is empty and the second is given.
  Object.assign(
    form,
    perChoice((group) => {
      const [first, second] = group.options;
      const useSecond =
        first.keys.every((key) => isBlank(read(key))) &&
        second.keys.some((key) => !isBlank(read(key)));
      return useSecond ? second.value : first.value;
    }),
  );

  skillRowKeys.forEach((keys, index) => {
    const row = blankSkillRow();
    for (const { part, key } of keys.parts) row[part] = read(key);
    const filled = keys.parts.some(({ part }) => !isBlank(row[part]));
    if (filled || !isBlank(read(keys.sequence))) form.skills[index] = row;
  });
  questionRowKeys.forEach((keys, index) => {
    const description = read(keys.description);
    if (!isBlank(description) || !isBlank(read(keys.sequence)))
      form.questions[index] = { description };
  });
  // A gap in a file (skill 1 empty, skill 3 filled) becomes blank rows, so the form shows it.
  form.skills = Array.from(form.skills, (row) => row ?? blankSkillRow());
  form.questions = Array.from(form.questions, (row) => row ?? { description: '' });
  return form;
}

/**
 * Where a wire key's problem shows in the form: rows by index, alternatives on the one in use.
 * `skilldescription3` → `skills.2.description`; `reqownerid` when the owner is given by name →
 * `reqownerfirstname`.
 */
export function requisitionFormPath(key: string, form: RequisitionForm): string {
  const row = requisitionField(key)?.row;
  if (row?.group === 'skills') {
    const index = sentRows(form.skills)[row.n - 1] ?? row.n - 1;
    return `skills.${index}.${row.part === 'sequence' ? 'description' : row.part}`;
  }
  if (row?.group === 'questions')
    return `questions.${sentRows(form.questions)[row.n - 1] ?? row.n - 1}.description`;
  for (const choice of choiceKeys) {
    const alternatives = requisitionChoices[choice];
    const inUse = alternatives[form[choice]] ?? [];
    const anyAlternative = Object.values(alternatives).some((keys) => keys.some((k) => k === key));
    if (anyAlternative && !inUse.some((k) => k === key)) return inUse[0] ?? key;
  }
  return key;
}

const scalarShape = stringFields(scalarKeys);

const shape = {
  ...scalarShape,
  ...choiceSchemas,
  skills: z.array(skillRowSchema),
  questions: z.array(questionRowSchema),
};

/**
 * The form schema (for zodResolver): the form model's shape, then every wire rule applied to the
 * wire object the form would send, each problem placed on its form field. One set of rules serves
 * the form, the validator, the proxy and the sandbox.
 */
export const requisitionFormSchema = z.object(shape).check(
  // No `when` option: zod runs this only once the shape has parsed, so rows are arrays and
  // fields strings; a malformed form gets its shape issues rather than a TypeError.
  z.superRefine((value, ctx) => {
    const form: RequisitionForm = value;
    if (form.skills.length > MAX_SKILLS) {
      ctx.addIssue({
        code: 'custom',
        path: ['skills'],
        message: `A requisition has at most ${MAX_SKILLS} skills; remove ${form.skills.length - MAX_SKILLS}`,
      });
    }
    if (form.questions.length > MAX_QUESTIONS) {
      ctx.addIssue({
        code: 'custom',
        path: ['questions'],
        message: `A requisition has at most ${MAX_QUESTIONS} questions; remove ${form.questions.length - MAX_QUESTIONS}`,
      });
    }
    const result = validateRequisitionItem(requisitionFormToWire(form, 'YYYY-MM-DD'), {
      dateFormat: 'YYYY-MM-DD',
    });
    if (!result.ok) addFormIssues(ctx, result.issues, (field) => requisitionFormPath(field, form));
  }),
);
