import type { DateFormat } from './catalog-types';
import { parseWireDate } from './dates';
import type { IssueList } from './field-issue';
import type { FieldIssue } from './field-issue';
import { isBlank } from './field-rules';
import { requiredOnInsert, requisitionAlternatives } from './requisition-alternatives';
import type { RequisitionWireKey, SkillRowPart } from './requisition-catalog';
import {
  MAX_CUSTOM_FIELDS,
  MAX_QUESTIONS,
  MAX_SKILLS,
  requisitionCatalog,
  requisitionField,
  requisitionPeople,
  requisitionWireKeys,
  skillRowParts,
} from './requisition-catalog';
import type { ItemResult, WireCheck, WirePayload, WireReader, WireRecord } from './wire-check';
import { checkWireItem, compileWireCheck, wireItemIssues } from './wire-check';
import type { WireSchema } from './wire-schema';
import { buildWireSchema, rowKeyLookup, unknownKeyExplainer } from './wire-schema';

export type RequisitionWire = WireRecord<RequisitionWireKey>;

const label = (key: RequisitionWireKey) => requisitionField(key)?.label ?? key;

const rowKey = rowKeyLookup(requisitionCatalog, 'requisition');

/** Wire key of a skill row part: skill3, skilldescription3, requireddesired3… (n = 1..10). */
export function skillKey(part: SkillRowPart | 'sequence', n: number): RequisitionWireKey {
  return rowKey('skills', n, part);
}

/** Wire key of a question row part: question2, questiondescription2 (n = 1..5). */
export function questionKey(part: 'sequence' | 'description', n: number): RequisitionWireKey {
  return rowKey('questions', n, part);
}

/** Each skill row's keys (index 0 = skill 1), resolved once for the per-item loops. */
export const skillRowKeys = Array.from({ length: MAX_SKILLS }, (_, i) => ({
  sequence: skillKey('sequence', i + 1),
  description: skillKey('description', i + 1),
  parts: skillRowParts.map((part) => ({ part, key: skillKey(part, i + 1) })),
}));

/** Each question row's keys (index 0 = question 1). */
export const questionRowKeys = Array.from({ length: MAX_QUESTIONS }, (_, i) => ({
  sequence: questionKey('sequence', i + 1),
  description: questionKey('description', i + 1),
}));

/** Why a key is not a requisition field, in words (a typo, a row beyond its limit). */
export const requisitionUnknownKey = unknownKeyExplainer('requisition', requisitionCatalog, {
  questions: {
    limit: MAX_QUESTIONS,
    noun: 'questions',
    range: `question1–question${MAX_QUESTIONS}`,
  },
  customfields: {
    limit: MAX_CUSTOM_FIELDS,
    noun: 'custom fields',
    range: `customfieldvalue1–customfieldvalue${MAX_CUSTOM_FIELDS}`,
  },
  skills: { limit: MAX_SKILLS, noun: 'skills', range: `numbered 1–${MAX_SKILLS}` },
});

interface NumberedRow {
  sequence: RequisitionWireKey;
  description: RequisitionWireKey;
  /** Every key whose data makes the row count as filled. */
  data: readonly RequisitionWireKey[];
}

/**
 * Skill and question rows are numbered from 1 by their order, without gaps; a filled row needs
 * its text (decision 000: the user never types the numbers).
 */
function checkNumberedRows(
  rows: readonly NumberedRow[],
  noun: { one: string; many: string; text: string; verb: string },
  read: WireReader<RequisitionWireKey>,
  issues: IssueList,
): void {
  let lastFilled = 0;
  rows.forEach((keys, index) => {
    const n = index + 1;
    const sequence = read(keys.sequence);
    if (!keys.data.some((key) => !isBlank(read(key)))) {
      if (!isBlank(sequence)) {
        issues.add(
          keys.description,
          `${noun.one} ${n} has a sequence number but no ${noun.text}; ${noun.verb} or clear ${keys.sequence}`,
        );
      }
      return;
    }
    const gap = rows[lastFilled];
    if (n !== lastFilled + 1 && gap) {
      issues.add(
        gap.description,
        `${noun.one} ${lastFilled + 1} is empty but ${noun.one.toLowerCase()} ${n} is filled; ${noun.many} must be numbered 1, 2, 3… without gaps`,
      );
    }
    lastFilled = n;
    if (sequence.trim() !== String(n)) {
      issues.add(
        keys.sequence,
        `${noun.one} ${n} sequence number must be ${n} (its position), not "${sequence}"`,
      );
    }
    if (isBlank(read(keys.description))) {
      issues.add(
        keys.description,
        `${noun.one} ${n} needs a ${noun.text}; ${noun.verb} or remove the row`,
      );
    }
  });
}

const skillRows: NumberedRow[] = skillRowKeys.map(({ sequence, description, parts }) => ({
  sequence,
  description,
  data: parts.map(({ key }) => key),
}));
const questionRows: NumberedRow[] = questionRowKeys.map(({ sequence, description }) => ({
  sequence,
  description,
  data: [description],
}));

function checkRows(read: WireReader<RequisitionWireKey>, issues: IssueList): void {
  checkNumberedRows(
    skillRows,
    { one: 'Skill', many: 'skills', text: 'description', verb: 'describe the skill' },
    read,
    issues,
  );
  checkNumberedRows(
    questionRows,
    { one: 'Question', many: 'questions', text: 'text', verb: 'write the question' },
    read,
    issues,
  );
}

/** Required for Insert only (`insert` in the catalog); `insert-amend` keys are below. */
const insertOnlyKeys = requisitionCatalog
  .filter((def) => def.requirement === 'insert')
  .map((def) => def.key);
/** Keys required on both (`insert-amend`), besides the request type itself. */
const alwaysKeys = requisitionCatalog
  .filter((def) => def.requirement === 'insert-amend' && def.key !== 'requesttype')
  .map((def) => def.key);
const requiredGroups = requisitionAlternatives.filter(requiredOnInsert);
/** Each person's name keys, resolved once for the per-item rules. */
const peopleByName = requisitionPeople.map(({ stem, label: who }) => ({
  who,
  first: `${stem}firstname` as const,
  last: `${stem}lastname` as const,
}));

function requisitionItemRules(
  read: WireReader<RequisitionWireKey>,
  issues: IssueList,
  { dateFormat }: { dateFormat: DateFormat },
): void {
  const requestType = read('requesttype');
  const insert = requestType === 'I';
  const amend = requestType === 'A';
  const require = (key: RequisitionWireKey, why: string) => {
    if (isBlank(read(key))) issues.add(key, `${label(key)} is required ${why}`);
  };

  if (isBlank(requestType))
    issues.add(
      'requesttype',
      'Request type is required: I to insert a new requisition, A to amend one',
    );
  const forBoth = insert ? 'for Insert' : amend ? 'for Amend' : 'for Insert and Amend';
  for (const key of alwaysKeys) {
    require(key, key === 'clientinternalreq' && amend
      ? 'for Amend: it identifies the requisition (client internal req or VMS Req ID)'
      : forBoth);
  }

  if (insert) {
    // What the catalog marks required for Insert (`insert`), and each either/or group whose
    // fields it marks `either`: one alternative must be given whole.
    for (const key of insertOnlyKeys) require(key, 'for Insert');
    for (const group of requiredGroups) {
      if (group.options.some((option) => option.keys.every((key) => !isBlank(read(key))))) continue;
      if (group.options.some((option) => option.keys.some((key) => !isBlank(read(key))))) continue;
      const [first, second] = group.options;
      issues.add(
        first.keys[0] ?? 'requesttype',
        `A ${group.legend.toLowerCase()} is required for Insert: give ${first.phrase}, or ${second.phrase}`,
      );
    }
    if (!isBlank(read('reqstatus'))) {
      issues.add(
        'reqstatus',
        'Status can only be set on Amend; leave it blank for Insert (every new requisition starts Open)',
      );
    }
  }

  // A person given by name needs both names (decision 000; spec rule 3).
  for (const { who, first, last } of peopleByName) {
    if (isBlank(read(first)) !== isBlank(read(last))) {
      const missing = isBlank(read(first)) ? first : last;
      const missingWord = missing === first ? 'first' : 'last';
      issues.add(
        missing,
        `${who} ${missingWord} name is needed too: a person given by name needs both first and last name (or use the ID instead)`,
      );
    }
  }

  const start = parseWireDate(read('startdate'), dateFormat);
  const end = parseWireDate(read('enddate'), dateFormat);
  if (start !== null && end !== null && end < start) {
    issues.add(
      'enddate',
      `End date ${read('enddate')} is before the start date ${read('startdate')}; the end date must be on or after the start`,
    );
  }

  // billrangefrom is the Hourly High, billrangeto the Hourly Low (spec, decision 000).
  const high = read('billrangefrom');
  const low = read('billrangeto');
  if (
    !isBlank(high) &&
    !isBlank(low) &&
    Number.isFinite(Number(high)) &&
    Number.isFinite(Number(low)) &&
    Number(high) < Number(low)
  ) {
    issues.add(
      'billrangefrom',
      `Bill rate, hourly high (${high}) is below the hourly low (${low}); the high must be at least the low — billrangefrom is the high, billrangeto the low`,
    );
  }

  checkRows(read, issues);
}

export const requisitionPayload: WirePayload<RequisitionWireKey> = {
  name: 'requisition',
  catalog: requisitionCatalog,
  itemRules: requisitionItemRules,
};

const checks = new Map<DateFormat, WireCheck<RequisitionWireKey>>();

/** The requisition wire rules for a date format (compiled once per format). */
function requisitionWireCheck(dateFormat: DateFormat): WireCheck<RequisitionWireKey> {
  let check = checks.get(dateFormat);
  if (!check) {
    check = compileWireCheck(requisitionPayload, dateFormat);
    checks.set(dateFormat, check);
  }
  return check;
}

const schemas = new Map<DateFormat, WireSchema<RequisitionWireKey>>();

/** The requisition wire schema for a date format (built once per format). */
export function requisitionWireSchema(dateFormat: DateFormat): WireSchema<RequisitionWireKey> {
  let schema = schemas.get(dateFormat);
  if (!schema) {
    schema = buildWireSchema(requisitionWireCheck(dateFormat));
    schemas.set(dateFormat, schema);
  }
  return schema;
}

/** Checks a requisition by the wire rules, as requisitionWireSchema does, without zod's parse. */
export function validateRequisitionItem(
  item: unknown,
  options: { dateFormat: DateFormat },
): ItemResult<RequisitionWireKey> {
  return checkWireItem(requisitionWireCheck(options.dateFormat), item, requisitionUnknownKey);
}

/** A requisition's problems by wire key ([] when valid): validateRequisitionItem's, no record. */
export function requisitionItemIssues(
  item: unknown,
  options: { dateFormat: DateFormat },
): FieldIssue[] {
  return wireItemIssues(requisitionWireCheck(options.dateFormat), item, requisitionUnknownKey);
}

const blankWire = Object.fromEntries(
  requisitionWireKeys.map((key) => [key, '']),
) as RequisitionWire;

/** Every documented key, in order, blank. */
export function blankRequisitionWire(): RequisitionWire {
  return { ...blankWire };
}
