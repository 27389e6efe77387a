import { describe, expect, it } from 'vitest';
import { requisitionRecordSchema } from '@/domain';
import { matchesSearch, targetRequisition } from './target-requisition';

const record = requisitionRecordSchema.parse({
  Req_Id: '40002',
  TitleRole: 'QA Analyst',
  ClientInternalReq: 'NW-REQ-0002',
  ReqStatus: '8',
  StartDate: '03/01/2026',
  NoNewSubmittalsAfter: '12/31/2030',
  BillRangeFrom: '65.00',
  BillRangeTo: '50.00',
  MaximumBillRate: '0',
  SkillDescription1: 'Selenium',
  RequiredDesired1: '1',
  AmountOfExperience1: '3',
  AmountOfExperienceType1: '4',
  SkillDescription2: 'SQL',
  QuestionDescription1: 'Can you start in March?',
});

describe('targetRequisition', () => {
  it('reads what the candidate form and its warnings need from a GET Requisitions record', () => {
    const target = targetRequisition(record, 'MM/DD/YYYY');
    // Dates arrive in the service's format and are shown and compared as ISO.
    expect([target.startDate, target.endDate, target.noNewSubmittalsAfter]).toEqual([
      '2026-03-01',
      '',
      '2030-12-31',
    ]);
    expect(
      `${target.statusLabel} ${target.hourlyHigh}/${target.hourlyLow} max ${target.maximumBillRate}`,
    ).toBe('Closed/Cancelled 65.00/50.00 max 0');
    expect(target.questions).toEqual(['Can you start in March?']);
    expect(target.shape).toEqual({ skillCount: 2, questionCount: 1 });
    expect(target.skills).toEqual([
      { description: 'Selenium', level: 'Required', experience: '3 Years' },
      { description: 'SQL', level: '', experience: '' },
    ]);
  });

  it('matches a search on Req ID, title or client internal req, ignoring case', () => {
    expect(['4000', 'qa anal', 'nw-req-0002', ''].map((s) => matchesSearch(record, s))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(matchesSearch(record, 'Java')).toBe(false);
  });
});
