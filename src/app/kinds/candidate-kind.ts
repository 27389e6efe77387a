import { z } from 'zod';
import { validateCandidateItem } from '../../domain';
import type { BatchKind, ResultRow } from '../../features/batch/model/batch-kind';
import type { Tone } from '../../shared/ui/status-badge';
import {
  readItem as read,
  resultRowNumber as rowNumber,
  resultRowsOf,
  resultText as text,
} from './result-fields';

const tones: Record<string, Tone> = {
  Pending: 'pending',
  New: 'success',
  Incomplete: 'warning',
  Error: 'error',
};

/**
 * GET candidateresults (decisions.md): Row, the status, CandErrorMessage, Cand_Id,
 * Vendor_Candidate_Id. The real service names the status `Cand_Status`; the sandbox sends both it
 * and `Status`. Either is read, `Cand_Status` first.
 */
const candidateResultRowSchema = z
  .looseObject({
    Row: rowNumber,
    Status: z.string().optional(),
    Cand_Status: z.string().optional(),
    CandErrorMessage: text,
    Cand_Id: text,
    Vendor_Candidate_Id: text,
  })
  .refine((raw) => Boolean(raw.Cand_Status || raw.Status), {
    message: 'each candidate result row must have a Cand_Status (or Status)',
  })
  .transform((raw): ResultRow => {
    const status = raw.Cand_Status || raw.Status || '';
    return {
      row: raw.Row,
      status,
      tone: tones[status] ?? 'neutral',
      pending: status === 'Pending',
      failed: status === 'Error',
      message: raw.CandErrorMessage,
      createdId: raw.Cand_Id,
      reference: raw.Vendor_Candidate_Id,
    };
  });

export const candidateKind: BatchKind = {
  id: 'candidate',
  title: 'Candidates',
  noun: { one: 'candidate', many: 'candidates' },
  labels: { createdId: 'Candidate ID', reference: 'Vendor candidate ID' },
  postOperation: 'candidates',
  resultsOperation: 'candidateresults',
  resultRowsSchema: resultRowsOf(candidateResultRowSchema, 'candidate'),
  summarize: (item) => {
    const name = [read(item, 'firstname'), read(item, 'lastname')].filter(Boolean).join(' ');
    const reqId = read(item, 'requirementid');
    return {
      badge: 'C',
      badgeLabel: 'Candidate',
      reference: read(item, 'candemail'),
      title: [name, reqId && `→ Req ID ${reqId}`].filter(Boolean).join(' '),
    };
  },
  // The requisition's shape is not known here: the form checked it, and the VMS checks it again.
  validate: (item, dateFormat) => {
    const result = validateCandidateItem(item, { dateFormat });
    return result.ok ? [] : result.issues;
  },
  formPath: (item) => {
    const reqId = read(item, 'requirementid');
    return reqId ? `/candidates?${new URLSearchParams({ reqId }).toString()}` : '/candidates';
  },
};
