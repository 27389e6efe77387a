import type { BatchKind } from '@/core/batch/model/batch-kind';
import { readItem as read } from '@/core/batch/model/result-fields';
import { candidatePayload } from '@/domain';

export const candidateKind: BatchKind = {
  ...candidatePayload,
  // The interface has no call that updates a submitted candidate, and the VMS refuses the same
  // e-mail to the same requisition again unless the first ended in Error (decision 000).
  completeNote:
    'To complete it, answer the missing questions in the VMS itself: this interface cannot update a submitted candidate, and the VMS refuses the same e-mail to this requisition again.',
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
  formPath: (item) => {
    const reqId = read(item, 'requirementid');
    return reqId ? `/candidates?${new URLSearchParams({ reqId }).toString()}` : '/candidates';
  },
};
