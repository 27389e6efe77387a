import type { RequisitionContext } from './candidate-wire';
import type { DateFormat } from './catalog-types';
import { convertWireDate } from './dates';
import type { FieldIssue } from './field-issue';
import { payloadKindDescriptors, payloadKindOf, type PayloadKind } from './payload-kind';
import { isPlainObject } from './wire-check';

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
      : typeof value === 'object'
        ? 'an object'
        : `a ${typeof value}`;

/** Why a body is not a batch: a sentence for people, and each bad item for tools. */
export interface BatchShapeProblem {
  message: string;
  details: { field: string; message: string }[];
}

/** Most bad items listed in `details`. */
const maxDetails = 20;

/**
 * Why `input` is not a batch, or null when it is: a JSON array of 1..maxItems objects (spec,
 * "Resources and their fields"; decision 000: anything else is refused whole). The one check the
 * portal server, the sandbox and the validator all make. Items are numbered from 1.
 */
export function batchShapeProblem(
  input: unknown,
  options: { noun?: string; maxItems?: number; limitName?: string } = {},
): BatchShapeProblem | null {
  const noun = options.noun ?? 'item';
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  const nouns = `${noun}s`;
  if (!Array.isArray(input)) {
    return {
      message: `The body must be a JSON array of ${noun} objects, but it is ${describe(input)}; put the ${noun} object(s) inside [ ].`,
      details: [],
    };
  }
  if (input.length === 0) {
    return {
      message: `The body is an empty array; send at least one ${noun} object.`,
      details: [],
    };
  }
  if (input.length > maxItems) {
    const limit = options.limitName ? ` (${options.limitName})` : '';
    return {
      message: `The body has ${input.length} ${nouns}, more than the ${maxItems} one batch may hold${limit}; split it into batches of at most ${maxItems}.`,
      details: [],
    };
  }
  const bad = input.flatMap((item: unknown, index) =>
    isPlainObject(item) ? [] : [{ n: index + 1, type: describe(item) }],
  );
  const [first] = bad;
  if (!first) return null;
  const more = bad.length - 1;
  return {
    message:
      `Every item of the array must be a ${noun} object ({ "field": "value", … }), but item ` +
      `${first.n} is ${first.type}` +
      `${more > 0 ? ` (and ${more} more ${more === 1 ? 'item' : 'items'}, listed in details)` : ''}; ` +
      'fix or remove those items and send the batch again.',
    details: bad.slice(0, maxDetails).map(({ n, type }) => ({
      field: `item ${n}`,
      message: `is ${type}, not a ${noun} object`,
    })),
  };
}

/** One item's problems under its kind's rules, by wire key; [] when it is valid. */
export function itemProblems(
  kind: PayloadKind,
  item: unknown,
  options: { dateFormat: DateFormat; requisition?: RequisitionContext },
): FieldIssue[] {
  return payloadKindOf(kind).itemIssues(item, options);
}

/** One item's line of a batch report: its problems by wire key. */
export function itemReport(
  kind: PayloadKind,
  item: unknown,
  index: number,
  options: { dateFormat: DateFormat; requisition?: RequisitionContext },
): BatchItemReport {
  const errors = itemProblems(kind, item, options);
  return { index, valid: errors.length === 0, errors };
}

/** Validates every item of a batch; the report lists each item's problems by wire key. */
export function validateBatch(
  kind: PayloadKind,
  items: readonly unknown[],
  options: { dateFormat: DateFormat; requisition?: RequisitionContext },
): BatchReport {
  const reports = items.map((item, index) => itemReport(kind, item, index, options));
  return { valid: reports.every((report) => report.valid), items: reports };
}

const dateKeys = new Map(
  Object.values(payloadKindDescriptors).map((kind) => [
    kind.id,
    new Set(kind.catalog.filter((def) => def.type === 'DATE').map((def) => def.key)),
  ]),
);

/**
 * An item of `kind` with its DATE fields written in another VMS's format (`from` → `to`), for
 * work moved from one connection to another; every other value is kept as it is, and a date that
 * does not read in `from` is left for the checks to flag.
 */
export function withDateFormat(
  kind: PayloadKind,
  item: Readonly<Record<string, string>>,
  from: DateFormat,
  to: DateFormat,
): Record<string, string> {
  if (from === to) return { ...item };
  const keys = dateKeys.get(kind);
  return Object.fromEntries(
    Object.entries(item).map(([key, value]) => [
      key,
      keys?.has(key) ? convertWireDate(value, from, to) : value,
    ]),
  );
}
