import { candidateCatalog, validateCandidateItem, withFieldLabels } from '../../../domain';
import type { BatchKind } from '../../../core/batch/model/batch-kind';
import { readItem as read, resultRowsOf, tonesOf } from '../../../core/batch/model/result-fields';
import { candidateResultRowSchema } from '../../../domain/batch-results';

const toneOf = tonesOf({
  Pending: 'pending',
  New: 'success',
  Incomplete: 'warning',
  Error: 'error',
});

export const candidateKind: BatchKind = {
  id: 'candidate',
  title: 'Candidates',
  noun: { one: 'candidate', many: 'candidates' },
  labels: { createdId: 'Candidate ID', reference: 'Vendor candidate ID' },
  postOperation: 'candidates',
  resultsOperation: 'candidateresults',
  toneOf,
  describeMessage: (message) => withFieldLabels(message, candidateCatalog),
  // The interface has no call that updates a submitted candidate, and the VMS refuses the same
  // e-mail to the same requisition again unless the first ended in Error (decision 000).
  completeNote:
    'To complete it, answer the missing questions in the VMS itself: this interface cannot update a submitted candidate, and the VMS refuses the same e-mail to this requisition again.',
  resultRowsSchema: resultRowsOf(candidateResultRowSchema, toneOf, 'candidate'),
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
