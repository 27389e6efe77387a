import { describe, expect, it } from 'vitest';
import type { SuiteCase } from '@/domain/suite-cases';
import { draftOf, draftProblems, draftReducer, itemFromText, suiteOf } from './suite-draft';

const entry = (id: string, item: Record<string, string> = {}): SuiteCase => ({
  id,
  kind: 'requisition',
  item,
  expect: { status: 'Success' },
});

let n = 0;
const keyOf = () => `k${(n += 1)}`;

describe('a suite draft', () => {
  it('moves, duplicates under a free id and deletes cases, keeping each row’s key', () => {
    let draft = draftOf({ name: 's', cases: [entry('a'), entry('b')] }, keyOf);
    const [a, b] = draft.cases.map((c) => c.key) as [string, string];
    draft = draftReducer(draft, { type: 'move', key: b, by: -1 });
    expect(draft.cases.map((c) => c.value.id)).toEqual(['b', 'a']);
    // Past either end, nothing moves.
    expect(draftReducer(draft, { type: 'move', key: b, by: -1 })).toBe(draft);
    draft = draftReducer(draft, { type: 'duplicate', key: a, newKey: 'copy' });
    expect(draft.cases.map((c) => [c.key, c.value.id, c.value.name])).toEqual([
      [b, 'b', undefined],
      [a, 'a', undefined],
      ['copy', 'a-2', 'a (copy)'],
    ]);
    draft = draftReducer(draft, { type: 'delete', key: b });
    expect(suiteOf(draft).cases.map((c) => c.id)).toEqual(['a', 'a-2']);
  });

  it('carries the references to a case whose id is changed', () => {
    let draft = draftOf(
      { name: 's', cases: [entry('a'), entry('c', { requirementid: '{{a.createdId}}' })] },
      keyOf,
    );
    draft = draftReducer(draft, {
      type: 'change-id',
      key: draft.cases[0]?.key ?? '',
      id: 'create-req',
    });
    expect(suiteOf(draft).cases.map((c) => [c.id, c.item.requirementid])).toEqual([
      ['create-req', undefined],
      ['c', '{{create-req.createdId}}'],
    ]);
  });

  it('says what keeps it from being saved, by case, in the file’s own rules', () => {
    const draft = draftOf(
      { name: 's', cases: [entry('b', { x: '{{later.createdId}}' }), entry('Bad Id')] },
      keyOf,
    );
    expect(draftProblems(draft)).toEqual([
      {
        key: draft.cases[0]?.key,
        message:
          'Case 1 “b” (item): {{later.createdId}} names no case of this suite; check the id ("later")',
      },
      {
        key: draft.cases[1]?.key,
        message: 'Case 2 “Bad Id” (id): a case id is a lowercase slug such as create-req',
      },
    ]);
    expect(draftProblems({ name: 's', cases: [] })).toEqual([
      { key: null, message: 'A suite needs at least one case.' },
    ]);
  });

  it('reads a typed item, and says why one is not an item', () => {
    expect(itemFromText('{"titlerole": "Nurse"}')).toEqual({ item: { titlerole: 'Nurse' } });
    expect(itemFromText('{"noofopenings": 2}')).toEqual({
      problem:
        'noofopenings is not text: write every value in quotes, as the VMS is sent them ("2", not 2).',
    });
    expect(itemFromText('[{}]')).toMatchObject({
      problem: expect.stringMatching(/one JSON object/),
    });
    expect(itemFromText('{')).toMatchObject({
      problem: expect.stringMatching(/^This is not JSON/),
    });
  });
});
