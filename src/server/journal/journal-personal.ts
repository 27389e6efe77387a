import type { FastifyRequest } from 'fastify';
import type { Role } from '@/domain/auth';
import type { JournalBody, JournalCurl, JournalEntry } from '@/domain/journal';
import { maskPersonalAddress } from '@/domain/personal-address';
import { maskPersonalBody } from '@/domain/personal-body';
import type { PortalConfig } from '@/server/config';

/**
 * Who sees a journaled call's personal values (decision 058). Every body leaves the server
 * masked, unless the caller sent the call themselves or reveals it giving a reason (QA and
 * admins). With sign-in off there is no one to tell apart: whoever uses the loopback portal is
 * its admin and made every call recorded without an account, which it sees in full; calls made
 * as someone, while sign-in was on, stay theirs: masked, and revealed for a reason.
 */

export interface JournalViewer {
  /** The signed-in user's id; null with sign-in off. */
  userId: string | null;
  role: Role;
}

export function viewerOf(request: FastifyRequest, config: PortalConfig): JournalViewer {
  const user = config.auth.required ? request.portalSession?.user : undefined;
  return user ? { userId: user.id, role: user.role } : { userId: null, role: 'admin' };
}

/** QA and admins may reveal a call's personal data, giving a reason; a recruiter may not. */
export function mayReveal(viewer: JournalViewer): boolean {
  return viewer.role !== 'recruiter';
}

/** A recruiter's journal is their own calls: no one else's, not even masked. */
export function onlyOwnCalls(viewer: JournalViewer): string | undefined {
  return viewer.role === 'recruiter' && viewer.userId !== null ? viewer.userId : undefined;
}

/** The caller sent this call: its values are theirs to see. */
export function sentByViewer(entry: { sentBy: { userId: string } | null }, viewer: JournalViewer) {
  return viewer.userId === null ? entry.sentBy === null : entry.sentBy?.userId === viewer.userId;
}

function maskedBody(body: JournalBody | null): JournalBody | null {
  if (body === null) return null;
  if (body.encoding === 'base64') {
    // Not UTF-8: nothing in it can be told apart, so none of it is shown.
    return { ...body, text: '', personal: { masked: 0, reading: 'withheld' } };
  }
  const { text, masked, reading } = maskPersonalBody(body.text);
  return { ...body, text, personal: { masked, reading } };
}

/**
 * A call's summary (as the list shows it) with the personal values of its address masked: a
 * filter's value, a parameter named as a personal field (decision 061).
 */
export function maskedSummary<T extends { path: string }>(summary: T): T {
  return { ...summary, path: maskPersonalAddress(summary.path).text };
}

/**
 * A call with every personal value masked: its address (the portal's path and the VMS's URL) and
 * every body, the request, the answer, a late answer.
 */
export function maskedEntry<T extends JournalEntry>(entry: T): T {
  return {
    ...entry,
    path: maskPersonalAddress(entry.path).text,
    url: entry.url === null ? null : maskPersonalAddress(entry.url).text,
    requestBody: maskedBody(entry.requestBody),
    responseBody: maskedBody(entry.responseBody),
    lateAnswer:
      entry.lateAnswer === null
        ? null
        : { ...entry.lateAnswer, body: maskedBody(entry.lateAnswer.body) },
  };
}

/** A call's summary as this viewer may see it: in full when they sent it, else its address masked. */
export function summaryFor<T extends { path: string; sentBy: { userId: string } | null }>(
  summary: T,
  viewer: JournalViewer,
): T {
  return sentByViewer(summary, viewer) ? summary : maskedSummary(summary);
}

/** A call as this viewer may see it: in full when they sent it, else masked. */
export function entryFor<T extends JournalEntry>(entry: T, viewer: JournalViewer): T {
  return sentByViewer(entry, viewer) ? entry : maskedEntry(entry);
}

const maskedCopyNote =
  'Personal values are masked (•••): this copy does not send what was sent. Reveal the call to copy it in full.';

/**
 * The copies of a masked call, each opening with a comment that says so when its address or its
 * body had a value masked or withheld: run as they are, they would send the masks.
 */
export function maskedCopies(
  copies: JournalCurl,
  shown: JournalEntry,
  kept: JournalEntry,
): JournalCurl {
  const personal = shown.requestBody?.personal;
  const bodyMasked = personal && (personal.masked > 0 || personal.reading === 'withheld');
  if (!bodyMasked && shown.path === kept.path && shown.url === kept.url) return copies;
  return {
    ...copies,
    curl: `# ${maskedCopyNote}\n${copies.curl}`,
    powershell: `# ${maskedCopyNote}\n${copies.powershell}`,
    fetch: `// ${maskedCopyNote}\n${copies.fetch}`,
  };
}

/** Why a revealing export's reason is refused in its address, and where it goes instead. */
export const revealInAddress =
  'A reason to reveal personal data is never put in an address: access logs and the browser’s history keep addresses. Export with personal data from the inspector, or POST /api/journal/export with the filters, the format and {"reason": "…"} in the body.';

/**
 * An export's filters as a line of the audit trail: names and values, never a body, and not the
 * search's words, which may well be the person's name.
 */
export function exportFilterText(filter: Record<string, unknown>): string {
  return Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => [name, name === 'q' ? '(words)' : value])
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(' ');
}
