import { describe, expect, it } from 'vitest';
import { composedItems, composedPath, methodOf, type ComposedCall } from './compose';

const call = (overrides: Partial<ComposedCall>): ComposedCall => ({
  operation: 'requisitions',
  clientOrgId: '1001',
  vendorOrgId: '9001',
  filterField: 'Req_Id',
  filterOperator: '>=',
  filterValue: '',
  batchId: '',
  extraQuery: '',
  body: '',
  ...overrides,
});

describe('a call composed in the inspector', () => {
  it('reads the requisitions with the filter, encoded', () => {
    expect(composedPath(call({ filterValue: ' 40001 ' }))).toBe(
      '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&filterfield=Req_Id&filteroperator=%3E%3D&filtervalue=40001',
    );
    expect(composedPath(call({}))).toBe(
      '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001',
    );
  });

  it('asks for a batch’s results by its id, for requisitions and candidates', () => {
    expect(composedPath(call({ operation: 'candidateresults', batchId: 'cb_1 2' }))).toBe(
      '/api/vms/candidateresults?Client_Org_Id=1001&Vendor_Org_Id=9001&batchid=cb_1+2',
    );
    expect(composedPath(call({ operation: 'requisitionresults', batchId: 'rb_9' }))).toBe(
      '/api/vms/requisitionresults?Client_Org_Id=1001&Vendor_Org_Id=9001&batchid=rb_9',
    );
  });

  it('adds any other parameters as typed, and leaves out what is empty', () => {
    expect(
      composedPath(
        call({ operation: 'candidates', clientOrgId: '', extraQuery: '?probe=1&x=a%20b' }),
      ),
    ).toBe('/api/vms/candidates?Vendor_Org_Id=9001&probe=1&x=a+b');
    expect(methodOf('candidates')).toBe('POST');
    expect(methodOf('candidateresults')).toBe('GET');
  });
});

describe('a composed body saved as cases', () => {
  it('gives each item with its place, and says what to change in a body that is no batch', () => {
    expect(composedItems('[{"titlerole": "Nurse"}, {"titlerole": "Welder"}]')).toEqual([
      { item: { titlerole: 'Nurse' }, origin: 'item 1 of a composed call' },
      { item: { titlerole: 'Welder' }, origin: 'item 2 of a composed call' },
    ]);
    expect(() => composedItems('[{"noofopenings": 2}]')).toThrow(
      'Item 1 of the body is not an object of text values, which is what a case holds. Write each value in quotes.',
    );
    expect(() => composedItems('{"titlerole": "Nurse"}')).toThrow(/is not a JSON array of items/);
    expect(() => composedItems('[{')).toThrow(/is not JSON/);
  });
});
