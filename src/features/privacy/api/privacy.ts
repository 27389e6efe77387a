import { apiErrorBodySchema } from '@/domain/api-error';
import {
  subjectErasedSchema,
  subjectFoundSchema,
  type EraseRequest,
  type ExportRequest,
  type StoreCounts,
  type SubjectErased,
  type SubjectQuery,
} from '@/domain/personal-subject';
import { requestData, requestText } from '@/shared/api/http';

/**
 * One person's data, for admins (decision 059): found, exported and erased through
 * `/api/admin/privacy`. Every call is a POST: the e-mail goes in the body, never in an address.
 */
export async function findSubjectData(query: SubjectQuery): Promise<StoreCounts> {
  const found = await requestData(
    '/api/admin/privacy/find',
    subjectFoundSchema,
    'Looking for the person',
    {
      method: 'POST',
      body: query,
    },
  );
  return found.counts;
}

export function eraseSubjectData(request: EraseRequest): Promise<SubjectErased> {
  return requestData('/api/admin/privacy/erase', subjectErasedSchema, 'Erasing the person', {
    method: 'POST',
    body: request,
  });
}

/** The export as a file to save: its text, type and the name the server gave it. */
export async function exportSubjectData(
  request: ExportRequest,
): Promise<{ text: string; type: string; name: string }> {
  const answer = await requestText('/api/admin/privacy/export', 'Exporting the person’s data', {
    method: 'POST',
    text: JSON.stringify(request),
  });
  if (answer.status !== 200) {
    let message = `Exporting the person’s data: the server answered ${answer.status}.`;
    try {
      message = apiErrorBodySchema.parse(JSON.parse(answer.text)).error.message;
    } catch {
      // Not our error body: the status alone is said.
    }
    throw new Error(message);
  }
  const disposition = answer.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/u.exec(disposition)?.[1] ?? 'personal-data';
  return { text: answer.text, type: answer.headers.get('content-type') ?? 'text/plain', name };
}

/** The stores as an admin knows them. */
export const storeLabels: Record<string, string> = {
  journal: 'Call journal',
  journal_addresses: 'Call journal (addresses: filters, parameters)',
  watch: 'Kept results (Submissions)',
  drafts: 'Drafts',
  submissions: 'Submissions (synced)',
  tray: 'Trays (batches not sent)',
  suites: 'Suites’ cases',
  suite_runs: 'Suite runs',
  idempotency: 'Answers kept for repeated sends (24 hours)',
  audit: 'Audit trail',
};
