import type { CandidateWireKey, SkillResponsePart } from './candidate-catalog';
import {
  MAX_ANSWERS,
  MAX_CANDIDATE_CUSTOM_FIELDS,
  MAX_SKILL_RESPONSES,
  candidateCatalog,
  candidateField,
  candidateWireKeys,
  skillResponseParts,
} from './candidate-catalog';
import type { DateFormat } from './catalog-types';
import { oneTo } from './catalog-types';
import type { IssueList } from './field-issue';
import type { FieldIssue } from './field-issue';
import { isBlank } from './field-rules';
import type { ItemResult, WireCheck, WirePayload, WireReader, WireRecord } from './wire-check';
import { checkWireItem, compileWireCheck, wireItemIssues } from './wire-check';
import type { WireSchema } from './wire-schema';
import { buildWireSchema, rowKeyLookup, unknownKeyExplainer } from './wire-schema';

export type CandidateWire = WireRecord<CandidateWireKey>;

/** What the target requisition asks for, when the portal knows it (from GET Requisitions). */
export interface RequisitionContext {
  skillCount: number;
  questionCount: number;
}

const label = (key: CandidateWireKey) => candidateField(key)?.label ?? key;

const rowKey = rowKeyLookup(candidateCatalog, 'candidate');

/** skill3response, skill3amountofexperienceduration… (n = 1..10). */
export function skillResponseKey(part: SkillResponsePart, n: number): CandidateWireKey {
  return rowKey('skillResponses', n, part);
}

/** answer1..answer5. */
export function answerKey(n: number): CandidateWireKey {
  return rowKey('answers', n, 'answer');
}

/** Why a key is not a candidate field, in words (a typo, a row beyond its limit). */
export const candidateUnknownKey = unknownKeyExplainer('candidate', candidateCatalog, {
  answers: { limit: MAX_ANSWERS, noun: 'answers', range: `answer1–answer${MAX_ANSWERS}` },
  customfields: {
    limit: MAX_CANDIDATE_CUSTOM_FIELDS,
    noun: 'custom fields',
    range: `candcustomfield1–candcustomfield${MAX_CANDIDATE_CUSTOM_FIELDS}`,
  },
  skillResponses: {
    limit: MAX_SKILL_RESPONSES,
    noun: 'skill responses',
    range: `skill1…–skill${MAX_SKILL_RESPONSES}…`,
  },
});

/** What the catalog marks `required`. */
const requiredKeys = candidateCatalog
  .filter((def) => def.requirement === 'required')
  .map((def) => def.key);

function candidateItemRules(
  read: WireReader<CandidateWireKey>,
  issues: IssueList,
  context?: RequisitionContext,
): void {
  for (const key of requiredKeys) {
    if (isBlank(read(key))) issues.add(key, `${label(key)} is required`);
  }
  if (read('candcitizenshipstatus') === 'Other' && isBlank(read('candcitizenshipexplain'))) {
    issues.add(
      'candcitizenshipexplain',
      'Citizenship explanation is required when the citizenship status is Other',
    );
  }
  if (!context) return;
  // Only the requisition's own questions and skills can be answered (decision 000).
  for (const n of oneTo(MAX_ANSWERS)) {
    if (n > context.questionCount && !isBlank(read(answerKey(n)))) {
      issues.add(
        answerKey(n),
        `The requisition has ${context.questionCount} question${context.questionCount === 1 ? '' : 's'}, so there is no question ${n} to answer; clear answer${n}`,
      );
    }
  }
  for (const n of oneTo(MAX_SKILL_RESPONSES)) {
    if (n <= context.skillCount) continue;
    const part = skillResponseParts.find((p) => !isBlank(read(skillResponseKey(p, n))));
    if (part) {
      issues.add(
        skillResponseKey(part, n),
        `The requisition has ${context.skillCount} skill${context.skillCount === 1 ? '' : 's'}, so there is no skill ${n} to respond to; clear the skill ${n} fields`,
      );
    }
  }
}

function candidatePayload(context?: RequisitionContext): WirePayload<CandidateWireKey> {
  return {
    name: 'candidate',
    catalog: candidateCatalog,
    itemRules: (read, issues) => candidateItemRules(read, issues, context),
  };
}

const checks = new Map<string, WireCheck<CandidateWireKey>>();

/** The candidate wire rules for a date format and, optionally, the target requisition's shape. */
function candidateWireCheck(
  dateFormat: DateFormat,
  context?: RequisitionContext,
): WireCheck<CandidateWireKey> {
  const cacheKey = context
    ? `${dateFormat}|${context.skillCount}|${context.questionCount}`
    : dateFormat;
  let check = checks.get(cacheKey);
  if (!check) {
    check = compileWireCheck(candidatePayload(context), dateFormat);
    checks.set(cacheKey, check);
  }
  return check;
}

const schemas = new Map<WireCheck<CandidateWireKey>, WireSchema<CandidateWireKey>>();

/** The candidate wire schema for a date format and, optionally, the target requisition's shape. */
export function candidateWireSchema(
  dateFormat: DateFormat,
  context?: RequisitionContext,
): WireSchema<CandidateWireKey> {
  const check = candidateWireCheck(dateFormat, context);
  let schema = schemas.get(check);
  if (!schema) {
    schema = buildWireSchema(check);
    schemas.set(check, schema);
  }
  return schema;
}

/** Checks a candidate by the wire rules, as candidateWireSchema does, without zod's parse. */
export function validateCandidateItem(
  item: unknown,
  options: { dateFormat: DateFormat; requisition?: RequisitionContext },
): ItemResult<CandidateWireKey> {
  return checkWireItem(
    candidateWireCheck(options.dateFormat, options.requisition),
    item,
    candidateUnknownKey,
  );
}

/** A candidate's problems by wire key ([] when valid): validateCandidateItem's, no record. */
export function candidateItemIssues(
  item: unknown,
  options: { dateFormat: DateFormat; requisition?: RequisitionContext },
): FieldIssue[] {
  return wireItemIssues(
    candidateWireCheck(options.dateFormat, options.requisition),
    item,
    candidateUnknownKey,
  );
}

const blankWire = Object.fromEntries(candidateWireKeys.map((key) => [key, ''])) as CandidateWire;

/** Every documented key, in order, blank. */
export function blankCandidateWire(): CandidateWire {
  return { ...blankWire };
}
