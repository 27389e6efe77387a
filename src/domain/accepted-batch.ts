import { z } from 'zod';

/** The longest batch id the portal takes from a VMS; real ones are short (`rb_7f3a…`). */
export const batchIdMaxLength = 200;

/** An answer longer than this is not read for a batch id: an accepted batch's answer is a line. */
const maxAnswerLength = 64 * 1024;

const acceptedSchema = z.looseObject({ batchid: z.string().min(1).max(batchIdMaxLength) });
const decoder = new TextDecoder();

/**
 * The batch id a VMS's 2xx answer to a batch POST names (`{"batchid": "rb_…", …}`, in the
 * portal's terms once translated), or null: another status, an answer that is not such an
 * object, an id empty or longer than `batchIdMaxLength`. The proxy (to watch the batch), the
 * journal and the audit trail (to file the call under it) read it alike.
 */
export function acceptedBatchId(status: number, answer: Uint8Array | string | null): string | null {
  if (status < 200 || status >= 300 || answer === null || answer.length > maxAnswerLength) {
    return null;
  }
  try {
    const text = typeof answer === 'string' ? answer : decoder.decode(answer);
    const parsed = acceptedSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.batchid : null;
  } catch {
    return null;
  }
}
