import { describe, expect, it } from 'vitest';
import { requisitionRecordSchema } from '@/domain';
import {
  MAX_LISTED,
  MAX_REMEMBERED,
  mergeSuggestions,
  rememberValues,
  suggestionKeyOf,
  valuesFromRecords,
} from './suggestions';

describe('suggestions', () => {
  it('remembers typed ids and codes, most recent first, without repeats', () => {
    let typed = rememberValues(
      {},
      { reqownerid: 'mreyes', titlerole: 'not suggested', expertiserating2: '3' },
    );
    typed = rememberValues(typed, { reqownerid: 'dchen' });
    typed = rememberValues(typed, { reqownerid: 'mreyes ', worklocationrefcode: '' });
    expect(typed).toEqual({ reqownerid: ['mreyes', 'dchen'], expertiserating: ['3'] });
    for (let i = 0; i < 20; i += 1) typed = rememberValues(typed, { glid: String(i) });
    expect(typed.glid).toHaveLength(MAX_REMEMBERED);
    expect(typed.glid?.[0]).toBe('19');
  });

  it('offers the values of the listed requisitions, most common first', () => {
    const records = [
      { Req_Id: '1', ReqOwnerId: 'mreyes', ReqClassId: '101' },
      { Req_Id: '2', ReqOwnerId: 'dchen', ReqClassId: '101', ExpertiseRating1: '2' },
    ].map((raw) => requisitionRecordSchema.parse(raw));
    const fromList = valuesFromRecords(records);
    expect(fromList.reqclassid).toEqual(['101']);
    expect(fromList.expertiserating).toEqual(['2']);
    expect(mergeSuggestions({ reqownerid: ['dchen'] }, fromList).reqownerid).toEqual([
      'dchen',
      'mreyes',
    ]);
  });

  it('offers at most MAX_LISTED values of a field from a long list, the most common ones', () => {
    // 2,000 requisitions: 120 cost centres, CC-0 on 21 of them, CC-1 on 20, … the rest on 16.
    const raws = Array.from({ length: 2000 }, (_, i) => ({
      Req_Id: String(i),
      DivBranch: `CC-${i < 21 ? 0 : i < 41 ? 1 : 2 + (i % 118)}`,
    }));
    const offered = valuesFromRecords(raws.map((raw) => requisitionRecordSchema.parse(raw)));
    expect(offered.divbranch).toHaveLength(MAX_LISTED);
    expect(offered.divbranch?.slice(0, 2)).toEqual(['CC-0', 'CC-1']);
  });

  it('maps every skill row’s expertise rating to one list', () => {
    expect(suggestionKeyOf('expertiserating10')).toBe('expertiserating');
    expect(suggestionKeyOf('titlerole')).toBeUndefined();
  });
});
