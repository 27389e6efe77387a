import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateFormArb, requisitionFormArb } from '@/test-support/arbitraries';
import { itemProblems } from './batch';
import { candidateCatalog } from './candidate-catalog';
import { candidateFormToWire } from './candidate-form';
import type { RequisitionContext } from './candidate-wire';
import {
  candidateItemIssues,
  candidateUnknownKey,
  candidateWireSchema,
  validateCandidateItem,
} from './candidate-wire';
import type { DateFormat, FieldDef } from './catalog-types';
import { requisitionCatalog } from './requisition-catalog';
import { requisitionFormToWire } from './requisition-form';
import {
  requisitionItemIssues,
  requisitionUnknownKey,
  requisitionWireSchema,
  validateRequisitionItem,
} from './requisition-wire';
import type { ItemResult } from './wire-check';
import type { WireSchema } from './wire-schema';
import { toFieldIssues } from './wire-schema';

/*
 * The wire rules are applied in one place (compileWireCheck). The zod schema runs them inside a
 * transform; validateRequisitionItem / validateCandidateItem and the batch report (itemProblems)
 * run them directly, without zod's parse, for speed (the validator: 10,000 requisitions). These
 * properties hold the direct paths to the schema's answer, item by item: the same problems, in
 * the same order, with the same messages, and the same output when valid — on the generated
 * valid items and on those items broken at random.
 */
const numRuns = 300;
const formats: DateFormat[] = ['YYYY-MM-DD', 'MM/DD/YYYY'];

/** What the schema says: its output, or its issues as the portal reports them. */
function throughZod<K extends string>(
  schema: WireSchema<K>,
  item: unknown,
  unknownKey: (key: string) => string,
): ItemResult<K> {
  const result = schema.safeParse(item);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: toFieldIssues(result.error, unknownKey) };
}

/** Values that break fields in every way the rules know, and some they do not. */
function badValue(def: FieldDef | undefined): fc.Arbitrary<unknown> {
  const near = def?.options?.map((option) => ` ${option.value}`) ?? [];
  return fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      'x',
      '-1',
      '0',
      '1',
      '1.5',
      '1.234',
      '99999999',
      '1e3',
      '2026-02-29',
      '2024-02-29',
      '2026-13-01',
      '02/29/2024',
      '02/30/2026',
      '2026-03-31',
      '03/31/2026',
      'name@example.com',
      'not an e-mail',
      'Y',
      'N',
      'I',
      'A',
      'Other',
      ...near,
    ),
    ...(def?.options ? [fc.constantFrom(...def.options.map((option) => option.value))] : []),
    fc.string({ maxLength: 6 }),
    fc.constantFrom(1, 0, -1, 1.5, true, false, null, [], {}, ['1'], { value: '1' }),
  );
}

/**
 * A valid item broken at random: values replaced (strings or not), keys removed, unknown keys
 * added (typos, rows beyond their limit, anything).
 */
function broken(
  valid: fc.Arbitrary<Record<string, unknown>>,
  catalog: ReadonlyArray<FieldDef>,
  unknownKeys: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const keys = catalog.map((def) => def.key);
  const change = fc.oneof(
    fc
      .constantFrom(...keys)
      .chain((key) =>
        badValue(catalog.find((def) => def.key === key)).map((value) => ({ key, value })),
      ),
    fc.constantFrom(...keys).map((key) => ({ key, value: undefined, remove: true })),
    fc.oneof(fc.constantFrom(...unknownKeys), fc.string({ maxLength: 8 })).map((key) => ({
      key,
      value: 'x',
    })),
  );
  return fc.tuple(valid, fc.array(change, { maxLength: 8 })).map(([item, changes]) => {
    const copy: Record<string, unknown> = { ...item };
    for (const { key, value, ...rest } of changes) {
      if ('remove' in rest) delete copy[key];
      else copy[key] = value;
    }
    return copy;
  });
}

/** Things that are not items at all. */
const notItems = fc.oneof(
  fc.constantFrom(null, undefined, 0, 'x', true, [], [{}]),
  fc.anything({ maxDepth: 1 }),
);

describe.each(formats)('requisitions, dates as %s', (dateFormat) => {
  const schema = requisitionWireSchema(dateFormat);
  const valid = fc
    .oneof(requisitionFormArb('I'), requisitionFormArb('A'))
    .map((form): Record<string, unknown> => requisitionFormToWire(form, dateFormat));
  const items = fc.oneof(
    { weight: 1, arbitrary: valid },
    {
      weight: 4,
      arbitrary: broken(valid, requisitionCatalog, [
        'titleRole',
        'OrgId',
        'skill11',
        'skilldescription11',
        'question6',
        'customfieldvalue11',
        'constructor',
        '__proto__',
        'toString',
      ]),
    },
    { weight: 1, arbitrary: notItems },
  );

  it('validateRequisitionItem, itemProblems and the zod schema agree on every item', () => {
    fc.assert(
      fc.property(items, (item) => {
        const expected = throughZod(schema, item, requisitionUnknownKey);
        expect(validateRequisitionItem(item, { dateFormat })).toEqual(expected);
        const problems = expected.ok ? [] : expected.issues;
        expect(requisitionItemIssues(item, { dateFormat })).toEqual(problems);
        expect(itemProblems('requisition', item, { dateFormat })).toEqual(problems);
      }),
      { numRuns },
    );
  });

  it('keeps the output in documented order, every key a string', () => {
    fc.assert(
      fc.property(valid, (item) => {
        const result = validateRequisitionItem(item, { dateFormat });
        if (!result.ok) throw new Error(JSON.stringify(result.issues));
        expect(Object.keys(result.value)).toEqual(requisitionCatalog.map((def) => def.key));
      }),
      { numRuns: 50 },
    );
  });
});

describe.each(formats)('candidates, dates as %s', (dateFormat) => {
  const withContext = candidateFormArb.map(({ context, form }) => ({
    context,
    item: candidateFormToWire(form) as Record<string, unknown>,
  }));
  const cases = fc.oneof(
    { weight: 1, arbitrary: withContext },
    {
      weight: 4,
      arbitrary: withContext.chain(({ context, item }) =>
        broken(fc.constant(item), candidateCatalog, [
          'firstName',
          'answer6',
          'skill11response',
          'candcustomfield6',
        ]).map((mangled) => ({ context, item: mangled as unknown })),
      ),
    },
    { weight: 1, arbitrary: notItems.map((item) => ({ context: undefined, item })) },
  );

  it('validateCandidateItem, itemProblems and the zod schema agree, with or without the requisition', () => {
    fc.assert(
      fc.property(cases, fc.boolean(), ({ context, item }, knowsRequisition) => {
        const requisition: RequisitionContext | undefined = knowsRequisition ? context : undefined;
        const options = requisition ? { dateFormat, requisition } : { dateFormat };
        const expected = throughZod(
          candidateWireSchema(dateFormat, requisition),
          item,
          candidateUnknownKey,
        );
        expect(validateCandidateItem(item, options)).toEqual(expected);
        const problems = expected.ok ? [] : expected.issues;
        expect(candidateItemIssues(item, options)).toEqual(problems);
        expect(itemProblems('candidate', item, options)).toEqual(problems);
      }),
      { numRuns },
    );
  });
});
