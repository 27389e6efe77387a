import { describe, expect, it } from 'vitest';
import {
  payloadKindByOperation,
  payloadKindDescriptors,
  payloadKindOf,
  payloadKinds,
} from './payload-kind';
import { vmsOperations } from './vms-contract';

const descriptors = Object.values(payloadKindDescriptors);

describe('the payload kind descriptors', () => {
  it('describe every kind, each under its own id', () => {
    expect(descriptors.map((kind) => kind.id).sort()).toEqual([...payloadKinds].sort());
    for (const id of payloadKinds) expect(payloadKindOf(id).id).toBe(id);
  });

  it("name operations the VMS has, a batch's POST and its results' GET", () => {
    for (const kind of descriptors) {
      const method = (name: string) => vmsOperations.find((op) => op.name === name)?.method;
      expect(method(kind.postOperation)).toBe('POST');
      expect(method(kind.resultsOperation)).toBe('GET');
    }
    expect(new Set(descriptors.map((kind) => kind.postOperation)).size).toBe(descriptors.length);
  });

  it('find the kind an operation posts or reports, and none for the requisition list', () => {
    expect(payloadKindByOperation('requisitionimport')?.id).toBe('requisition');
    expect(payloadKindByOperation('requisitionresults')?.id).toBe('requisition');
    expect(payloadKindByOperation('candidates')?.id).toBe('candidate');
    expect(payloadKindByOperation('candidateresults')?.id).toBe('candidate');
    expect(payloadKindByOperation('requisitions')).toBeNull();
  });

  it('give every status a result may have a meaning, Pending and Error the same for all', () => {
    for (const kind of descriptors) {
      for (const status of kind.resultStatuses) expect(kind.statusMeanings[status]).toBeDefined();
      expect(kind.statusMeanings['Pending']).toBe('pending');
      expect(kind.statusMeanings['Error']).toBe('error');
    }
  });

  it('write result rows that their own schema reads back as stored, for every status', () => {
    for (const kind of descriptors) {
      for (const [index, status] of kind.resultStatuses.entries()) {
        const stored = {
          row: index + 1,
          status,
          errorMessage: status === 'Error' ? 'titlerole: is blank' : '',
          resultId: status === 'Pending' ? '' : `7${index}`,
          reference: `REF-${index}`,
        };
        const written = kind.resultRow('b_1', stored);
        expect(written[kind.resultFields.batch]).toBe('b_1');
        expect(kind.resultRowSchema.parse(JSON.parse(JSON.stringify(written)))).toEqual({
          row: stored.row,
          status,
          message: stored.errorMessage,
          createdId: stored.resultId,
          reference: stored.reference,
        });
      }
    }
  });

  it('refuse to write a status the kind does not have', () => {
    expect(() =>
      payloadKindOf('requisition').resultRow('b_1', {
        row: 1,
        status: 'New',
        errorMessage: '',
        resultId: '',
        reference: '',
      }),
    ).toThrow(/"New" is not one of Pending, Success, Error/);
  });

  it("name the identity and sheet fields from the kind's own catalog", () => {
    for (const kind of descriptors) {
      const keys = new Set(kind.catalog.map((def) => def.key));
      const named = [
        kind.identity.field,
        kind.referenceField,
        ...Object.keys(kind.sheet.defaults),
        kind.sheet.orgField,
        kind.sheet.requisitionField,
      ].filter((key): key is string => key !== null);
      for (const key of named) expect(keys, `${kind.id}: ${key}`).toContain(key);
    }
  });
});
