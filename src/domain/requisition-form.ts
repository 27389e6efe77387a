import { z } from 'zod';
import type { DateFormat } from './catalog-types';
import { formatWireDate, wireDateToIso } from './dates';
import { isBlank } from './field-rules';
import type { QuestionKey, RequisitionWireKey, SkillKey } from './requisition-catalog';
import {
  MAX_QUESTIONS,
  MAX_SKILLS,
  requisitionCatalog,
  requisitionField,
  requisitionPeople,
  requisitionReferences,
  skillRowParts,
} from './requisition-catalog';
import type { RequisitionWire } from './requisition-wire';
import {
  blankRequisitionWire,
  questionRowKeys,
  skillRowKeys,
  validateRequisitionItem,
} from './requisition-wire';
import { toPath } from './field-issue';
import { blankStrings, scalarKeysOf, stringFields } from './form-model';

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

const choiceSchemas = {
  reqclassBy: z.enum(['id', 'path']),
  clientcontactBy: z.enum(['id', 'name']),
  reqownerBy: z.enum(['id', 'name']),
  reportstoBy: z.enum(['id', 'name']),
  worklocationBy: z.enum(['code', 'id']),
  costcenterBy: z.enum(['code', 'id']),
  glBy: z.enum(['code', 'id']),
  projectBy: z.enum(['code', 'id']),
};
type ChoiceKey = keyof typeof choiceSchemas;
type Choices = { [C in ChoiceKey]: z.infer<(typeof choiceSchemas)[C]> };
const choiceKeys = Object.keys(choiceSchemas) as ChoiceKey[];

const person = <S extends string>(stem: S) =>
  ({ id: [`${stem}id`], name: [`${stem}firstname`, `${stem}lastname`] }) as const;
const reference = <S extends string>(stem: S) =>
  ({ code: [`${stem}refcode`], id: [`${stem}id`] }) as const;

/** Either/or choices (spec rules 1, 3, 8): for each, the wire keys of each alternative. */
export const requisitionChoices: Record<
  ChoiceKey,
  Record<string, readonly RequisitionWireKey[]>
> = {
  reqclassBy: { id: ['reqclassid'], path: ['fullreqpath'] },
  clientcontactBy: person('clientcontact'),
  reqownerBy: person('reqowner'),
  reportstoBy: person('reportsto'),
  worklocationBy: reference('worklocation'),
  costcenterBy: reference('costcenter'),
  glBy: reference('gl'),
  projectBy: reference('project'),
};

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

const defaultChoices: Choices = {
  reqclassBy: 'id',
  clientcontactBy: 'id',
  reqownerBy: 'id',
  reportstoBy: 'id',
  worklocationBy: 'code',
  costcenterBy: 'code',
  glBy: 'code',
  projectBy: 'code',
};

export function blankSkillRow(): SkillRow {
  return {
    description: '',
    requireddesired: '',
    amountofexperience: '',
    amountofexperiencetype: '',
    expertiserating: '',
  };
}

/** A new, empty form (every field has a default value, as react-hook-form wants). */
export function requisitionFormDefaults(requesttype: 'I' | 'A' = 'I'): RequisitionForm {
  const scalars = blankStrings(scalarKeys);
  return { ...scalars, ...defaultChoices, requesttype, skills: [], questions: [] };
}

/** Form → the wire object exactly as sent (decisions.md): every key, blanks as '', rows numbered. */
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
  form.skills.slice(0, MAX_SKILLS).forEach((row, index) => {
    const keys = skillRowKeys[index];
    if (!keys) return;
    wire[keys.sequence] = String(index + 1);
    for (const { part, key } of keys.parts) wire[key] = (row[part] ?? '').trim();
  });
  form.questions.slice(0, MAX_QUESTIONS).forEach((row, index) => {
    const keys = questionRowKeys[index];
    if (!keys) return;
    wire[keys.sequence] = String(index + 1);
    wire[keys.description] = (row.description ?? '').trim();
  });
  return wire;
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

  form.reqclassBy = isBlank(read('reqclassid')) && !isBlank(read('fullreqpath')) ? 'path' : 'id';
  for (const { stem } of requisitionPeople) {
    const byName =
      isBlank(read(`${stem}id`)) &&
      !(isBlank(read(`${stem}firstname`)) && isBlank(read(`${stem}lastname`)));
    form[`${stem}By`] = byName ? 'name' : 'id';
  }
  for (const { stem } of requisitionReferences) {
    form[`${stem}By`] =
      !isBlank(read(`${stem}id`)) && isBlank(read(`${stem}refcode`)) ? 'id' : 'code';
  }

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
  if (row?.group === 'skills')
    return `skills.${row.n - 1}.${row.part === 'sequence' ? 'description' : row.part}`;
  if (row?.group === 'questions') return `questions.${row.n - 1}.description`;
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
    // The shape above is exactly RequisitionForm; zod cannot see that through fromEntries.
    const form = value as unknown as RequisitionForm;
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
    if (result.ok) return;
    for (const issue of result.issues) {
      ctx.addIssue({
        code: 'custom',
        path: toPath(requisitionFormPath(issue.field, form)),
        message: issue.message,
      });
    }
  }),
) as unknown as z.ZodType<RequisitionForm>; // see the note in the refinement
