import type { DateFormat } from './catalog-types';
import type { RequisitionContext } from './candidate-wire';
import { validateCandidateItem } from './candidate-wire';
import type { FieldIssue } from './field-issue';
import { validateRequisitionItem } from './requisition-wire';
import { isPlainObject } from './wire-schema';

export type PayloadKind = 'requisition' | 'candidate';
export const payloadKinds = ['requisition', 'candidate'] as const satisfies readonly PayloadKind[];

export interface BatchItemReport {
  index: number;
  valid: boolean;
  errors: FieldIssue[];
}

export interface BatchReport {
  valid: boolean;
  items: BatchItemReport[];
}

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? 'a string'
        : `a ${typeof value}`;

/**
 * Why `input` is not a batch (a JSON array of 1..maxItems objects), or null when it is. Both
 * payloads are JSON arrays of flat objects (spec, "Resources and their fields").
 */
export function batchShapeProblem(
  input: unknown,
  maxItems = Number.POSITIVE_INFINITY,
): string | null {
  if (!Array.isArray(input))
    return `The body must be a JSON array of objects, [ {…}, {…} ], but it is ${describe(input)}`;
  if (input.length === 0) return 'The array is empty; a batch needs at least one item';
  if (input.length > maxItems)
    return `The array has ${input.length} items; at most ${maxItems} can be sent at once, so split it`;
  const bad = input.findIndex((item) => !isPlainObject(item));
  if (bad >= 0)
    return `Item ${bad} (0-based) is ${describe(input[bad])}; every item must be a JSON object`;
  return null;
}

/** Validates every item of a batch; the report lists each item's problems by wire key. */
export function validateBatch(
  kind: PayloadKind,
  items: readonly unknown[],
  options: { dateFormat: DateFormat; requisition?: RequisitionContext },
): BatchReport {
  const reports = items.map((item, index): BatchItemReport => {
    const result =
      kind === 'requisition'
        ? validateRequisitionItem(item, options)
        : validateCandidateItem(item, options);
    return result.ok
      ? { index, valid: true, errors: [] }
      : { index, valid: false, errors: result.issues };
  });
  return { valid: reports.every((report) => report.valid), items: reports };
}
