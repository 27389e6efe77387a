import { describe, expect, it } from 'vitest';
import { fullRequisitionForm } from '@/test-support/test-data';
import { requisitionResponseName, requisitionWireKeys } from './requisition-catalog';
import { requisitionFormToWire, requisitionWireToForm } from './requisition-form';
import {
  requisitionListSchema,
  requisitionRecordSchema,
  requisitionRecordShape,
  requisitionRecordToAmendWire,
} from './requisition-record';
import { validateRequisitionItem } from './requisition-wire';

/** A record as the service would send it for a requisition built from `wire`. */
function recordFor(wire: Record<string, string>, reqId = '40021'): Record<string, string> {
  const record: Record<string, string> = {
    Req_Id: reqId,
    Req_Created_Date_Time: '2026-11-21T19:31:00Z',
    Req_Updated_Date_Time: '2026-11-22T08:00:00Z',
  };
  for (const key of requisitionWireKeys) {
    if (key === 'requesttype') continue;
    record[requisitionResponseName(key)] = wire[key] ?? '';
  }
  return record;
}

describe('requisitionRecordSchema', () => {
  it('reads every PascalCase field back to its wire key', () => {
    const wire = requisitionFormToWire(fullRequisitionForm(3), 'MM/DD/YYYY');
    const parsed = requisitionRecordSchema.parse(recordFor(wire));
    expect(parsed.reqId).toBe('40021');
    expect(parsed.updatedAt).toBe('2026-11-22T08:00:00Z');
    expect(parsed.fields.titlerole).toBe(wire.titlerole);
    expect(parsed.fields.billrangefrom).toBe('95.50');
    expect(parsed.fields.skilldescription10).toBe(wire.skilldescription10);
    expect(parsed.fields.startdate).toBe('12/01/2026');
  });

  it('reads a missing field as blank and ignores fields it does not know', () => {
    const parsed = requisitionRecordSchema.parse({
      Req_Id: '40001',
      TitleRole: 'QA Analyst',
      SomethingNew: 'x',
    });
    expect(parsed.fields.titlerole).toBe('QA Analyst');
    expect(parsed.fields.reqstatus).toBe('');
    expect(parsed.createdAt).toBe('');
  });

  it('refuses a record whose values are not strings, naming the field', () => {
    const result = requisitionListSchema.safeParse([{ Req_Id: '40001', NoOfOpenings: 2 }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([0, 'NoOfOpenings']);
  });

  it('says which record of a list is wrong, and how', () => {
    const result = requisitionListSchema.safeParse([
      { Req_Id: '40001' },
      'not a record',
      { Req_Id: '40a' },
    ]);
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: [1], message: 'A requisition record must be a JSON object' },
      {
        path: [2, 'Req_Id'],
        message: 'Req_Id must be a whole number written as a string, such as "40001"',
      },
    ]);
  });

  it('refuses a record without a Req_Id and a body that is not an array', () => {
    expect(requisitionRecordSchema.safeParse({ TitleRole: 'x' }).success).toBe(false);
    const notArray = requisitionListSchema.safeParse({ error: 'nope' });
    expect(notArray.error?.issues[0]?.message).toMatch(/JSON array of requisition records/);
  });
});

describe('requisitionRecordToAmendWire', () => {
  it('gives a valid Amend that loads into the form with its dates', () => {
    const wire = requisitionFormToWire(fullRequisitionForm(1), 'MM/DD/YYYY');
    const record = requisitionRecordSchema.parse(recordFor(wire));
    const amend = requisitionRecordToAmendWire(record);
    expect(amend.requesttype).toBe('A');
    expect(amend.clientinternalreq).toBe(wire.clientinternalreq);
    const form = requisitionWireToForm(amend, 'MM/DD/YYYY');
    expect(form.requesttype).toBe('A');
    expect(form.startdate).toBe('2026-12-01');
    expect(form.skills).toHaveLength(10);
    const again = requisitionFormToWire({ ...form, reqstatus: '9' }, 'MM/DD/YYYY');
    expect(validateRequisitionItem(again, { dateFormat: 'MM/DD/YYYY' }).ok).toBe(true);
  });

  it('identifies the requisition by its Req ID when it has no client internal req', () => {
    const record = requisitionRecordSchema.parse({ Req_Id: '40007', ClientInternalReq: '' });
    expect(requisitionRecordToAmendWire(record).clientinternalreq).toBe('40007');
  });
});

describe('requisitionRecordShape', () => {
  it('counts the skills and questions that have content', () => {
    const record = requisitionRecordSchema.parse({
      Req_Id: '40001',
      Skill1: '1',
      SkillDescription1: 'Java',
      Skill2: '2',
      SkillDescription2: 'SQL',
      Skill3: '3',
      RequiredDesired3: '1',
      Skill4: '4',
      Question1: '1',
      QuestionDescription1: 'Why?',
    });
    expect(requisitionRecordShape(record)).toEqual({ skillCount: 3, questionCount: 1 });
  });

  it('is zero for a requisition without skills or questions', () => {
    const record = requisitionRecordSchema.parse({ Req_Id: '40020' });
    expect(requisitionRecordShape(record)).toEqual({ skillCount: 0, questionCount: 0 });
  });
});
