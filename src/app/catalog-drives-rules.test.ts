import { beforeEach, describe, expect, it, vi } from 'vitest';

// The catalog is the one place a field's requirement is written. Flipping it
// must change the wire rules, the form rules, the form's "(required)" and the field docs
// together. Each case loads the modules afresh after changing the catalog entry in memory, so a
// rule kept anywhere else (a hand-written list) would not follow and the test would fail.

const dateFormat = 'YYYY-MM-DD';

beforeEach(() => {
  vi.resetModules();
});

async function withDivbranch(requirement: 'insert' | 'optional') {
  const catalog = await import('@/domain/requisition-catalog');
  const def = catalog.requisitionField('divbranch');
  if (!def) throw new Error('the catalog has divbranch');
  Object.assign(def, { requirement });
  const domain = await import('@/domain');
  const layout = await import('@/features/requisitions/model/form-layout');
  const docs = await import('@/cli/field-docs');
  return { def, domain, layout, docs };
}

/** A valid Insert as the spec shows it, written out here, with divbranch blank. */
const insert = {
  requesttype: 'I',
  orgid: '1001',
  reqclassid: '101',
  titlerole: 'Welder',
  noofopenings: '1',
  clientinternalreq: 'REQ-1',
  hoursunitsperday: '8',
  daysperweek: '5',
  engagementtype: '1',
  shortdescription: 'Welds',
  reqownerid: 'mreyes',
};

describe('a field made required for Insert in the catalog', () => {
  it.each(['insert', 'optional'] as const)('divbranch %s', async (requirement) => {
    const { def, domain, layout, docs } = await withDivbranch(requirement);
    const required = requirement === 'insert';

    const wire = { ...domain.blankRequisitionWire(), ...insert };
    const result = domain.validateRequisitionItem(wire, { dateFormat });
    const wireFields = result.ok ? [] : result.issues.map((issue) => issue.field);
    expect(wireFields.includes('divbranch')).toBe(required);

    const form = domain.requisitionWireToForm(wire, dateFormat);
    const parsed = domain.requisitionFormSchema.safeParse(form);
    const formPaths = parsed.success
      ? []
      : parsed.error.issues.map((issue) => issue.path.join('.'));
    expect(formPaths.includes('divbranch')).toBe(required);

    expect(layout.isRequired(def, 'insert')).toBe(required);

    const row = docs
      .renderFieldDocs()
      .split('\n')
      .find((line) => line.startsWith('| `divbranch`'));
    expect(row).toContain(required ? 'Required for Insert' : 'Optional');
  });
});
