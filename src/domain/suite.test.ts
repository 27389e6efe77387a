import { describe, expect, it } from 'vitest';
import { caseFailure, planRun, resolveItem, resultsPollDelay } from './suite';
import {
  appendCases,
  casesFromItems,
  expectationFrom,
  freeCaseId,
  renameCase,
  suiteSchema,
  withPerRunValues,
  type SuiteCase,
} from './suite-cases';

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

/** A plan as `kind:[indexes]` per batch, one list per wave: easy to read in a failure. */
const shape = (cases: SuiteCase[], maxBatch?: number) =>
  planRun(cases, maxBatch).map((wave) =>
    wave.map((batch) => `${batch.kind === 'requisition' ? 'R' : 'C'}:${batch.cases.join(',')}`),
  );

describe('planRun', () => {
  it('sends a case after the cases it refers to, each kind in the suite order, both kinds of a wave together', () => {
    expect(
      shape([
        entry('a', 'requisition'),
        entry('b', 'requisition'),
        // Refers to a: after a's results are in.
        entry('c', 'requisition', { reqid: '{{a.createdId}}' }),
        // After c, its own kind's earlier case.
        entry('d', 'requisition', { note: '{{run.id}}' }),
        entry('e', 'candidate', { requirementid: '{{b.createdId}}' }),
        entry('f', 'candidate'),
      ]),
    ).toEqual([['R:0,1'], ['R:2,3', 'C:4,5']]);
  });

  it('sends 500 independent cases as one batch, and splits at the most a batch may hold', () => {
    const many = Array.from({ length: 500 }, (_, i) => entry(`r${i}`, 'requisition'));
    expect(planRun(many)).toHaveLength(1);
    expect(planRun(many)[0]?.[0]?.cases).toHaveLength(500);
    const split = planRun(many, 200)[0] ?? [];
    expect(split.map((batch) => batch.cases.length)).toEqual([200, 200, 100]);
    expect(split.flatMap((batch) => batch.cases)).toEqual(many.map((_, i) => i));
  });

  it('puts a case of one kind with a later one of its kind when nothing refers to it in between', () => {
    // r1 needs nothing, but r3 needs c2: r1 waits to go with r3 rather than alone.
    expect(
      shape([
        entry('r1', 'requisition'),
        entry('c2', 'candidate'),
        entry('r3', 'requisition', { note: '{{c2.createdId}}' }),
      ]),
    ).toEqual([['C:1'], ['R:0,2']]);
    // Here c2 needs r1: r1 cannot wait.
    expect(
      shape([
        entry('r1', 'requisition'),
        entry('c2', 'candidate', { requirementid: '{{r1.createdId}}' }),
        entry('r3', 'requisition', { note: '{{c2.createdId}}' }),
      ]),
    ).toEqual([['R:0'], ['C:1'], ['R:2']]);
  });

  it('interleaves requisitions and the candidates to them in two waves, not one batch per case', () => {
    const cases = [1, 2, 3].flatMap((n) => [
      entry(`req-${n}`, 'requisition'),
      entry(`cand-${n}`, 'candidate', { requirementid: `{{req-${n}.createdId}}` }),
    ]);
    expect(shape(cases)).toEqual([['R:0,2,4'], ['C:1,3,5']]);
  });
});

describe('resultsPollDelay', () => {
  const nothingYet = (polls: number) =>
    resultsPollDelay({ polls, elapsedMs: 100, settled: 0, total: 500 });

  it('waits 25 ms first, a quarter longer each read while nothing is settled, never more than a second', () => {
    expect([0, 1, 2, 3].map(nothingYet)).toEqual([25, 31, 39, 49]);
    expect(nothingYet(40)).toBe(1000);
  });

  it('reads again when the rest should be settled at the pace between the last two reads', () => {
    // 100 more in the 50 ms since the read before: 300 more take 150 ms; 5 % and 5 ms more.
    const before = { elapsedMs: 150, settled: 100 };
    expect(resultsPollDelay({ polls: 3, elapsedMs: 200, settled: 200, total: 500, before })).toBe(
      163,
    );
    // Not longer than the batch has taken so far: an early pace may be off.
    expect(resultsPollDelay({ polls: 1, elapsedMs: 60, settled: 10, total: 500 })).toBe(60);
    // Almost done: not sooner than 25 ms.
    expect(resultsPollDelay({ polls: 3, elapsedMs: 300, settled: 499, total: 500, before })).toBe(
      25,
    );
    // A slow VMS: still a read a second, so progress shows.
    expect(resultsPollDelay({ polls: 9, elapsedMs: 5000, settled: 1, total: 500 })).toBe(1000);
  });
});

describe('withPerRunValues', () => {
  it('makes a new requisition’s reference and a candidate’s e-mail new for each run, once', () => {
    expect(
      withPerRunValues('requisition', { requesttype: 'I', clientinternalreq: ' NW-7 ' }),
    ).toEqual({ requesttype: 'I', clientinternalreq: 'NW-7-{{run.id}}' });
    // An Amend finds its requisition by that reference: it stays.
    expect(
      withPerRunValues('requisition', { requesttype: 'A', clientinternalreq: 'NW-7' }),
    ).toEqual({ requesttype: 'A', clientinternalreq: 'NW-7' });
    expect(
      withPerRunValues('candidate', { candemail: 'ada@example.com', firstname: 'Ada' }),
    ).toEqual({ candemail: '{{unique.email}}', firstname: 'Ada' });
    expect(
      withPerRunValues('requisition', { requesttype: 'I', clientinternalreq: 'QA-{{run.id}}' }),
    ).toEqual({ requesttype: 'I', clientinternalreq: 'QA-{{run.id}}' });
  });
});

describe('expectationFrom', () => {
  it('expects the status the VMS gave, and for an Error the field its message names', () => {
    expect(expectationFrom('candidate', { status: 'New', message: '' })).toEqual({
      status: 'New',
    });
    expect(
      expectationFrom('requisition', {
        status: 'Error',
        message: 'reqclassid: 999 is not a req class of org 1001',
      }),
    ).toEqual({ status: 'Error', field: 'reqclassid' });
    expect(expectationFrom('requisition', { status: 'Error', message: 'Not Authorized' })).toEqual({
      status: 'Error',
    });
    expect(expectationFrom('requisition', { status: 'Pending', message: '' })).toBeNull();
  });
});

describe('case ids', () => {
  it('finds a free id, and renaming a case carries the references to it', () => {
    expect(freeCaseId('req-1', new Set(['req-1', 'req-1-2']))).toBe('req-1-3');
    expect(freeCaseId('Night nurse {{run.id}}!', new Set())).toBe('night-nurse');
    const renamed = renameCase(
      [entry('a', 'requisition'), entry('b', 'candidate', { requirementid: '{{a.createdId}} x' })],
      'a',
      'create-req',
    );
    expect(renamed.map((c) => [c.id, c.item.requirementid])).toEqual([
      ['create-req', undefined],
      ['b', '{{create-req.createdId}} x'],
    ]);
  });

  it('appends cases under free ids, their references following', () => {
    const suite = { name: 's', cases: [entry('req-1', 'requisition')] };
    const added = appendCases(suite, [
      entry('req-1', 'requisition'),
      entry('cand-1', 'candidate', { requirementid: '{{req-1.createdId}}' }),
    ]);
    expect(added.cases.map((c) => c.id)).toEqual(['req-1', 'req-1-2', 'cand-1']);
    expect(added.cases[2]?.item.requirementid).toBe('{{req-1-2.createdId}}');
    expect(suiteSchema.safeParse(added).success).toBe(true);
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

describe('the expected message', () => {
  it('is refused when it is not a regular expression, saying how to write one', () => {
    const parsed = suiteSchema.safeParse({
      name: 's',
      cases: [{ ...entry('a', 'requisition'), expect: { status: 'Error', message: 'rate (high' } }],
    });
    expect(parsed.error?.issues[0]?.message).toMatch(/not a regular expression; escape/);
  });
});

describe('casesFromItems', () => {
  it('makes kept items cases under ids of their own, with new values per run when asked', () => {
    const entries = [
      { item: { requesttype: 'I', clientinternalreq: 'NW-1' }, idBase: 'req-NW-1', name: 'first' },
      { item: { requesttype: 'I', clientinternalreq: 'NW-1' }, idBase: 'req-NW-1', name: 'again' },
    ].map((entry) => ({ ...entry, expect: { status: 'Success' as const } }));
    const cases = casesFromItems('requisition', entries, {
      perRun: true,
      taken: new Set(['req-nw-1']),
    });
    expect(cases.map((entry) => [entry.id, entry.item.clientinternalreq])).toEqual([
      ['req-nw-1-2', 'NW-1-{{run.id}}'],
      ['req-nw-1-3', 'NW-1-{{run.id}}'],
    ]);
    expect(casesFromItems('requisition', entries.slice(0, 1), { perRun: false })[0]?.item).toEqual({
      requesttype: 'I',
      clientinternalreq: 'NW-1',
    });
  });

  it('keeps the values of a case expected to be refused: its refusal may be for them', () => {
    // A batch's second row, refused as a duplicate of the first's client internal req.
    const requisitions = casesFromItems(
      'requisition',
      [
        { status: 'Success' as const },
        { status: 'Error' as const, field: 'clientinternalreq' },
      ].map((expect, index) => ({
        item: { requesttype: 'I', clientinternalreq: 'DUP-1' },
        idBase: `req-${index + 1}`,
        name: `row ${index + 1}`,
        expect,
      })),
      { perRun: true },
    );
    expect(requisitions.map((entry) => entry.item.clientinternalreq)).toEqual([
      'DUP-1-{{run.id}}',
      'DUP-1',
    ]);
    // A candidate refused for an e-mail already submitted keeps it; one accepted gets a new one.
    const candidates = casesFromItems(
      'candidate',
      [{ status: 'New' as const }, { status: 'Error' as const, field: 'candemail' }].map(
        (expect, index) => ({
          item: { requirementid: '40001', candemail: 'twice@example.com' },
          idBase: `cand-${index + 1}`,
          name: `row ${index + 1}`,
          expect,
        }),
      ),
      { perRun: true },
    );
    expect(candidates.map((entry) => entry.item.candemail)).toEqual([
      '{{unique.email}}',
      'twice@example.com',
    ]);
  });
});
