import { validateCandidateItem } from '../../../domain';
import type { BatchKind, ResultRow } from '../../../core/batch/model/batch-kind';
import type { Tone } from '../../../shared/ui/status-badge';
import { readItem as read, resultRowsOf } from '../../../core/batch/model/result-fields';
import { candidateResultRowSchema } from '../../../domain/batch-results';

const tones: Record<string, Tone> = {
  Pending: 'pending',
  New: 'success',
  Incomplete: 'warning',
  Error: 'error',
};

const candidateResultRow = candidateResultRowSchema.transform((row): ResultRow => ({
  ...row,
  tone: tones[row.status] ?? 'neutral',
  pending: row.status === 'Pending',
  failed: row.status === 'Error',
}));

export const candidateKind: BatchKind = {
  id: 'candidate',
  title: 'Candidates',
  noun: { one: 'candidate', many: 'candidates' },
  labels: { createdId: 'Candidate ID', reference: 'Vendor candidate ID' },
  postOperation: 'candidates',
  resultsOperation: 'candidateresults',
  resultRowsSchema: resultRowsOf(candidateResultRow, 'candidate'),
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
