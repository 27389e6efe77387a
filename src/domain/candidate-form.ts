import { z } from 'zod';
import type { AnswerKey, CandidateWireKey, SkillResponseKey } from './candidate-catalog';
import {
  MAX_ANSWERS,
  MAX_SKILL_RESPONSES,
  candidateCatalog,
  candidateField,
  defaultNoFlags,
  skillResponseParts,
} from './candidate-catalog';
import type { CandidateWire, RequisitionContext } from './candidate-wire';
import {
  answerKey,
  blankCandidateWire,
  skillResponseKey,
  validateCandidateItem,
} from './candidate-wire';
import { addFormIssues } from './field-issue';
import { isBlank } from './field-rules';
import { blankStrings, scalarKeysOf, stringFields } from './form-model';

/**
 * The candidate form model. Scalar fields keep their wire names; answers and skill responses are
 * rows, one per question and skill of the target requisition (or generic rows when the portal
 * does not know it).
 */
export type CandidateScalarKey = Exclude<CandidateWireKey, AnswerKey | SkillResponseKey>;

const scalarKeys = scalarKeysOf<CandidateScalarKey>(candidateCatalog);

export const answerRowSchema = z.object({ answer: z.string() });
export const skillResponseRowSchema = z.object(stringFields(skillResponseParts));
export type SkillResponseRow = z.infer<typeof skillResponseRowSchema>;

export function blankSkillResponseRow(): SkillResponseRow {
  return blankStrings(skillResponseParts);
}

const scalarShape = stringFields(scalarKeys);

const shape = {
  ...scalarShape,
  answers: z.array(answerRowSchema),
  skillResponses: z.array(skillResponseRowSchema),
};

export type CandidateForm = z.infer<z.ZodObject<typeof shape>>;

/** A new form shaped by the requisition: one answer row per question, one response row per skill. */
export function candidateFormDefaults(
  context?: RequisitionContext,
  requirementid = '',
): CandidateForm {
  const scalars = blankStrings(scalarKeys);
  // The spec's "default N" flags start as No, so the form shows what will be sent.
  for (const flag of defaultNoFlags) scalars[flag] = 'N';
  scalars.requirementid = requirementid;
  return {
    ...scalars,
    answers: Array.from({ length: context?.questionCount ?? MAX_ANSWERS }, () => ({ answer: '' })),
    skillResponses: Array.from(
      { length: context?.skillCount ?? MAX_SKILL_RESPONSES },
      blankSkillResponseRow,
    ),
  };
}

export function candidateFormToWire(form: CandidateForm): CandidateWire {
  const wire = blankCandidateWire();
  for (const key of scalarKeys) wire[key] = (form[key] ?? '').trim();
  for (const flag of defaultNoFlags) if (wire[flag] === '') wire[flag] = 'N';
  form.answers.slice(0, MAX_ANSWERS).forEach((row, index) => {
    wire[answerKey(index + 1)] = (row.answer ?? '').trim();
  });
  form.skillResponses.slice(0, MAX_SKILL_RESPONSES).forEach((row, index) => {
    for (const part of skillResponseParts)
      wire[skillResponseKey(part, index + 1)] = (row[part] ?? '').trim();
  });
  return wire;
}

/**
 * Wire → form. With the requisition's shape the rows match it; without, they run to the last
 * filled answer or skill response.
 */
export function candidateWireToForm(
  wire: Partial<Record<CandidateWireKey, string>>,
  context?: RequisitionContext,
): CandidateForm {
  const read = (key: CandidateWireKey) => wire[key] ?? '';
  const form = candidateFormDefaults({ questionCount: 0, skillCount: 0 });
  for (const key of scalarKeys) form[key] = read(key);

  let answers = context?.questionCount ?? 0;
  for (let n = 1; n <= MAX_ANSWERS; n += 1)
    if (!isBlank(read(answerKey(n)))) answers = Math.max(answers, n);
  form.answers = Array.from({ length: answers }, (_, i) => ({ answer: read(answerKey(i + 1)) }));

  let skills = context?.skillCount ?? 0;
  for (let n = 1; n <= MAX_SKILL_RESPONSES; n += 1) {
    if (skillResponseParts.some((part) => !isBlank(read(skillResponseKey(part, n)))))
      skills = Math.max(skills, n);
  }
  form.skillResponses = Array.from({ length: skills }, (_, i) => {
    const row = blankSkillResponseRow();
    for (const part of skillResponseParts) row[part] = read(skillResponseKey(part, i + 1));
    return row;
  });
  return form;
}

/** Where a wire key's problem shows in the form: `answer2` → `answers.1.answer`. */
export function candidateFormPath(key: string): string {
  const row = candidateField(key)?.row;
  if (row?.group === 'answers') return `answers.${row.n - 1}.answer`;
  if (row?.group === 'skillResponses') return `skillResponses.${row.n - 1}.${row.part}`;
  return key;
}

/**
 * The candidate form schema for zodResolver: the wire rules, applied to what the form would
 * send, with the requisition's shape when the portal knows it.
 */
export function candidateFormSchema(context?: RequisitionContext) {
  return z.object(shape).check(
    // No `when` option: zod runs this only once the shape has parsed, so rows are arrays and
    // fields strings; a malformed form gets its shape issues rather than a TypeError.
    z.superRefine((form, ctx) => {
      if (form.answers.length > MAX_ANSWERS) {
        ctx.addIssue({
          code: 'custom',
          path: ['answers'],
          message: `A candidate has at most ${MAX_ANSWERS} answers`,
        });
      }
      if (form.skillResponses.length > MAX_SKILL_RESPONSES) {
        ctx.addIssue({
          code: 'custom',
          path: ['skillResponses'],
          message: `A candidate has at most ${MAX_SKILL_RESPONSES} skill responses`,
        });
      }
      const result = validateCandidateItem(candidateFormToWire(form), {
        dateFormat: 'YYYY-MM-DD',
        ...(context ? { requisition: context } : {}),
      });
      if (!result.ok) addFormIssues(ctx, result.issues, candidateFormPath);
    }),
  );
}
