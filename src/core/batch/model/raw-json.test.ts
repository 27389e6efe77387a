import { describe, expect, it } from 'vitest';
import { validateRequisitionItem } from '@/domain';
import { requisitionInsert } from '@/test-support/test-data';
import { readRawJson } from './raw-json';

/* The tray's JSON edited by hand, read back with each problem at its place. */
const validate = (item: Record<string, string>) => {
  const result = validateRequisitionItem(item, { dateFormat: 'YYYY-MM-DD' });
  return result.ok ? [] : result.issues;
};

describe('reading the edited batch', () => {
  it('gives back objects of text values as wire items, with no problem when they are valid', () => {
    const item = requisitionInsert();
    const read = readRawJson(JSON.stringify([item], null, 2), validate);
    expect(read.problems).toEqual([]);
    expect(read.elements).toEqual([{ kind: 'wire', wire: item }]);
  });

  it('puts a rule the domain breaks on the key of the field, in the item it belongs to', () => {
    const good = requisitionInsert();
    const bad = { ...requisitionInsert(), daysperweek: '9' };
    const text = JSON.stringify([good, bad], null, 2);
    const read = readRawJson(text, validate);
    expect(read.problems).toHaveLength(1);
    const [problem] = read.problems;
    // The second "daysperweek" key of the text, quotes included.
    const second = text.indexOf('"daysperweek"', text.indexOf('"daysperweek"') + 1);
    expect(problem).toEqual({
      from: second,
      to: second + '"daysperweek"'.length,
      message: expect.stringMatching(/^Item 2: Days per week must be between 0 and 7/) as string,
    });
  });

  it('keeps a number, a nested value or a non-object as a raw item, each flagged where it is', () => {
    const text = '[{"titlerole": "Nurse", "noofopenings": 3}, "just text"]';
    const read = readRawJson(text, validate);
    expect(read.elements).toEqual([
      {
        kind: 'raw',
        value: { titlerole: 'Nurse', noofopenings: 3 },
        wire: { titlerole: 'Nurse', noofopenings: '3' },
      },
      { kind: 'raw', value: 'just text', wire: {} },
    ]);
    expect(read.problems.map((problem) => text.slice(problem.from, problem.to))).toEqual([
      '3',
      '"just text"',
    ]);
    expect(read.problems[0]?.message).toBe(
      'Item 1: noofopenings is a number; the VMS\'s fields are text (write "3"). It is sent as written only without local checks.',
    );
  });

  it('reports broken JSON where it breaks, and a top level that is not an array', () => {
    const broken = '[{"titlerole": "Nurse" "noofopenings": "3"}]';
    const read = readRawJson(broken, validate);
    expect(read.elements).toBeNull();
    expect(read.problems.length).toBeGreaterThan(0);
    // The first marker sits at or just before the missing comma, not at the start of the text.
    expect(read.problems[0]?.from).toBeGreaterThanOrEqual(broken.indexOf('"Nurse"'));
    expect(read.problems[0]?.from).toBeLessThanOrEqual(broken.indexOf('"noofopenings"'));

    const object = readRawJson('{"titlerole": "Nurse"}', validate);
    expect(object.elements).toBeNull();
    expect(object.problems).toEqual([
      { from: 0, to: 22, message: 'A batch is a JSON array of items: [ { … }, { … } ].' },
    ]);
  });
});
