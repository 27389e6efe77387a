import type { DateFormat, RequisitionContext, RequisitionRecord } from '@/domain';
import {
  durationUnits,
  optionLabel,
  reqStatuses,
  requiredDesired,
  requisitionRecordShape,
  wireDateToIso,
} from '@/domain';

/** One skill of the target requisition, as the candidate form shows it beside its response. */
export interface TargetSkill {
  description: string;
  /** "Required", "Nice to Have"…; '' when not given. */
  level: string;
  /** "5 Years"; '' when not given. */
  experience: string;
}

/**
 * The requisition a candidate is submitted to, as the candidate workspace needs it: what it
 * shows beside the form, what shapes the form (its skills and questions) and what the
 * warnings check (status, dates, bill rates). Dates are ISO (YYYY-MM-DD) when they parse.
 */
export interface TargetRequisition {
  reqId: string;
  title: string;
  clientInternalReq: string;
  /** reqstatus code: 4 Open, 5 Interview occurring, 6 Filled, 8 Closed/Cancelled, 9 On Hold. */
  status: string;
  statusLabel: string;
  /** noofopenings; '' when not given. */
  openings: string;
  startDate: string;
  endDate: string;
  noNewSubmittalsAfter: string;
  /** billrangefrom is the hourly high, billrangeto the hourly low (spec). */
  hourlyHigh: string;
  hourlyLow: string;
  /** maximumbillrate: '0' may not exceed the hourly high, '1' may, '' not configured. */
  maximumBillRate: string;
  skills: TargetSkill[];
  questions: string[];
  shape: RequisitionContext;
}

/**
 * What a candidate is submitted to, as the workspace's parts are given it: the Req ID typed or
 * chosen, and the requisition when the list knows it (null: typed by hand, not in the list).
 */
export interface TargetProps {
  reqId: string;
  requisition: TargetRequisition | null;
}

export function targetRequisition(
  record: RequisitionRecord,
  dateFormat: DateFormat,
): TargetRequisition {
  const f = record.fields;
  const shape = requisitionRecordShape(record);
  const field = (key: string): string => (f as Record<string, string>)[key]?.trim() ?? '';
  const skills = Array.from({ length: shape.skillCount }, (_, i): TargetSkill => {
    const n = i + 1;
    const amount = field(`amountofexperience${n}`);
    const unit = optionLabel(durationUnits, field(`amountofexperiencetype${n}`)) ?? '';
    return {
      description: field(`skilldescription${n}`),
      level: optionLabel(requiredDesired, field(`requireddesired${n}`)) ?? '',
      experience: amount ? [amount, unit].filter(Boolean).join(' ') : '',
    };
  });
  const questions = Array.from({ length: shape.questionCount }, (_, i) =>
    field(`questiondescription${i + 1}`),
  );
  const date = (value: string) => (value ? wireDateToIso(value, dateFormat) : '');
  return {
    reqId: record.reqId,
    title: f.titlerole,
    clientInternalReq: f.clientinternalreq,
    status: f.reqstatus,
    statusLabel: optionLabel(reqStatuses, f.reqstatus) ?? f.reqstatus,
    openings: f.noofopenings.trim(),
    startDate: date(f.startdate),
    endDate: date(f.enddate),
    noNewSubmittalsAfter: date(f.nonewsubmittalsafter),
    hourlyHigh: f.billrangefrom,
    hourlyLow: f.billrangeto,
    maximumBillRate: f.maximumbillrate.trim(),
    skills,
    questions,
    shape,
  };
}

/** Whether a search matches a requisition: its Req ID, title or client internal req. */
export function matchesSearch(record: RequisitionRecord, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === '') return true;
  return [record.reqId, record.fields.titlerole, record.fields.clientinternalreq].some((value) =>
    value.toLowerCase().includes(needle),
  );
}
