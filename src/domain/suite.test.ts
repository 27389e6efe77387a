import { describe, expect, it } from 'vitest';
import { caseFailure, planBatches, resolveItem, suiteSchema, type SuiteCase } from './suite';

const entry = (
  id: string,
  kind: SuiteCase['kind'],
  item: Record<string, string> = {},
): SuiteCase => ({
  id,
  kind,
  item,
  expect: { status: kind === 'candidate' ? 'New' : 'Success' },
});

describe('planBatches', () => {
  it('sends consecutive cases of one kind together, cut where the kind changes or a case needs an id its batch makes', () => {
    expect(
      planBatches([
        entry('a', 'requisition'),
        entry('b', 'requisition'),
        // Refers to a, in the batch being made: a new batch.
        entry('c', 'requisition', { reqid: '{{a.createdId}}' }),
        entry('d', 'requisition', { note: '{{run.id}}' }),
        entry('e', 'candidate', { requirementid: '{{b.createdId}}' }),
        entry('f', 'candidate'),
      ]),
    ).toEqual([
      [0, 1],
      [2, 3],
      [4, 5],
    ]);
  });
});

describe('resolveItem', () => {
  it('fills the run id, an address of the case, and an earlier case’s created id; leaves what it does not know', () => {
    expect(
      resolveItem(
        {
          clientinternalreq: 'QA-{{run.id}}-1',
          candemail: '{{ unique.email }}',
          requirementid: '{{create-req.createdId}}',
          other: '{{missing.createdId}} {{nothing}}',
        },
        { runId: 'ab12cd34', caseIndex: 2, created: new Map([['create-req', '40031']]) },
      ),
    ).toEqual({
      clientinternalreq: 'QA-ab12cd34-1',
      candemail: 'qa.ab12cd34.3@example.com',
      requirementid: '40031',
      other: '{{missing.createdId}} {{nothing}}',
    });
  });
});

describe('caseFailure', () => {
  it('says why an outcome is not the one expected, and nothing when it is', () => {
    const refused = {
      status: 'Error',
      message: 'Req class ID (reqclassid): 999 is not a req class',
      createdId: '',
    };
    expect(
      caseFailure({ status: 'Error', field: 'reqclassid', message: '999' }, refused),
    ).toBeNull();
    expect(caseFailure({ status: 'Success' }, refused)).toBe(
      'expected Success, got Error: Req class ID (reqclassid): 999 is not a req class',
    );
    expect(caseFailure({ status: 'Error', field: 'titlerole' }, refused)).toBe(
      'the message "Req class ID (reqclassid): 999 is not a req class" does not name titlerole',
    );
    expect(caseFailure({ status: 'Error', message: '^Title' }, refused)).toMatch(
      /does not match \/\^Title\//,
    );
  });
});

describe('suiteSchema', () => {
  it('refuses a case id used twice', () => {
    const parsed = suiteSchema.safeParse({
      name: 's',
      cases: [entry('a', 'requisition'), entry('a', 'requisition')],
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(
      'case id "a" is used twice; give each case its own',
    );
  });
});
