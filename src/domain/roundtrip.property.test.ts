import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { candidateFormArb, requisitionFormArb } from '@/test-support/arbitraries';
import { candidateWireKeys } from './candidate-catalog';
import { candidateFormSchema, candidateFormToWire, candidateWireToForm } from './candidate-form';
import { candidateWireSchema } from './candidate-wire';
import type { DateFormat } from './catalog-types';
import { requisitionWireKeys } from './requisition-catalog';
import {
  requisitionFormSchema,
  requisitionFormToWire,
  requisitionWireToForm,
} from './requisition-form';
import { requisitionWireSchema } from './requisition-wire';

/*
 * Form → wire → form is the identity over generated valid payloads, and
 * every generated wire object passes the wire schema. The arbitraries' conventions (trimmed
 * values, hidden alternatives blank…) are documented in arbitraries.ts.
 */
const numRuns = 200;
const formats: DateFormat[] = ['YYYY-MM-DD', 'MM/DD/YYYY'];

describe.each(formats)('requisitions, dates as %s', (dateFormat) => {
  describe.each(['I', 'A'] as const)('requesttype %s', (requesttype) => {
    it('form → wire → form is the identity', () => {
      fc.assert(
        fc.property(requisitionFormArb(requesttype), (form) => {
          const wire = requisitionFormToWire(form, dateFormat);
          expect(requisitionWireToForm(wire, dateFormat)).toEqual(form);
        }),
        { numRuns },
      );
    });

    it('every generated wire object passes the wire schema, keys in documented order', () => {
      fc.assert(
        fc.property(requisitionFormArb(requesttype), (form) => {
          const wire = requisitionFormToWire(form, dateFormat);
          expect(Object.keys(wire)).toEqual(requisitionWireKeys);
          const result = requisitionWireSchema(dateFormat).safeParse(wire);
          expect(result.error?.issues ?? []).toEqual([]);
          // The schema's output is the wire object itself: nothing added, dropped or changed.
          expect(result.data).toEqual(wire);
        }),
        { numRuns },
      );
    });
  });
});

describe('requisition forms', () => {
  it('every generated valid form passes the form schema', () => {
    fc.assert(
      fc.property(fc.oneof(requisitionFormArb('I'), requisitionFormArb('A')), (form) => {
        const result = requisitionFormSchema.safeParse(form);
        expect(result.error?.issues ?? []).toEqual([]);
      }),
      { numRuns },
    );
  });
});

describe('candidates', () => {
  it('form → wire → form is the identity, rows sized by the requisition', () => {
    fc.assert(
      fc.property(candidateFormArb, ({ context, form }) => {
        expect(candidateWireToForm(candidateFormToWire(form), context)).toEqual(form);
      }),
      { numRuns },
    );
  });

  it.each(formats)(
    'every generated wire object passes the wire schema (%s), with its requisition',
    (dateFormat) => {
      fc.assert(
        fc.property(candidateFormArb, ({ context, form }) => {
          const wire = candidateFormToWire(form);
          expect(Object.keys(wire)).toEqual(candidateWireKeys);
          const result = candidateWireSchema(dateFormat, context).safeParse(wire);
          expect(result.error?.issues ?? []).toEqual([]);
          expect(result.data).toEqual(wire);
        }),
        { numRuns },
      );
    },
  );

  it('every generated valid form passes the form schema for its requisition', () => {
    fc.assert(
      fc.property(candidateFormArb, ({ context, form }) => {
        const result = candidateFormSchema(context).safeParse(form);
        expect(result.error?.issues ?? []).toEqual([]);
      }),
      { numRuns },
    );
  });
});
