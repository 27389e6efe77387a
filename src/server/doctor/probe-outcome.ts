import type { ProbeResult } from '@/domain/connection-check';
import { readPointer, vmsCallPath, type VmsProfile } from '@/domain/vms-profile';
import type { ProbeAnswer } from './probe-client';
import type { JsonRecord } from './record-checks';
import type { DoctorTarget } from './target';

/** What every probe shares: its outcome's shape and how it reads and describes an answer. */

export type Outcome = Omit<ProbeResult, 'id' | 'title'>;

/**
 * A probe passes only on evidence: what it asked and what came back, one line each, carried in
 * the report (and `--json`) beside the finding.
 */
export const pass = (finding: string, evidence: string[] = []): Outcome => ({
  verdict: 'passed',
  finding,
  fix: null,
  evidence,
});
export const fail = (finding: string, fix: string, evidence: string[] = []): Outcome => ({
  verdict: 'failed',
  finding,
  fix,
  evidence,
});
export const undecided = (
  finding: string,
  fix: string | null = null,
  evidence: string[] = [],
): Outcome => ({ verdict: 'undecided', finding, fix, evidence });

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function oneLine(value: string, max = 160): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The VMS's own message in an answer: at `errors.message`, or null. */
export function messageAt(profile: VmsProfile, text: string): string | null {
  const message = readPointer(parseJson(text), profile.errors.message);
  return typeof message === 'string' && message.trim() !== '' ? oneLine(message) : null;
}

export function looksLikeHtml(answer: ProbeAnswer): boolean {
  return (
    (answer.headers['content-type'] ?? '').includes('html') ||
    /^\s*<(!doctype|html)/i.test(answer.text)
  );
}

/** What an answer said, for a finding: the message at errors.message, or what the body is. */
export function said(profile: VmsProfile, answer: ProbeAnswer): string {
  const message = messageAt(profile, answer.text);
  if (message !== null) return `"${message}"`;
  if (looksLikeHtml(answer)) return 'an HTML page';
  if (answer.text.trim() === '') return 'an empty body';
  return `a body without a message at "${profile.errors.message}" (errors.message): ${oneLine(answer.text, 80)}`;
}

export const ok = (answer: ProbeAnswer) => answer.status >= 200 && answer.status < 300;

export function orgQuery(
  target: DoctorTarget,
  clientOrgId: number,
  extra: Record<string, string> = {},
) {
  const params = new URLSearchParams({
    Client_Org_Id: String(clientOrgId),
    Vendor_Org_Id: String(target.vendorOrgId),
    ...extra,
  });
  return `?${params.toString()}`;
}

/**
 * The requisitions list for `clientOrgId` filtered on its Req ID, in the portal's own filter names
 * (the profile writes them as the VMS's): `= 0` is the list that must match nothing.
 */
export function reqIdFilterPath(
  target: DoctorTarget,
  clientOrgId: number,
  value: string,
  operator: '=' | '>=' = '=',
): string {
  return vmsCallPath(
    target.profile,
    'requisitions',
    orgQuery(target, clientOrgId, {
      filterfield: 'Req_Id',
      filteroperator: operator,
      filtervalue: value,
    }),
  );
}
