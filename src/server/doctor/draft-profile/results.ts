import { readPointer, vmsCallPath, type VmsProfile } from '@/domain/vms-profile';
import type { ProbeAnswer } from '@/server/doctor/probe-client';
import { arrayPointer } from '@/server/doctor/probe-context';
import {
  isRecord,
  looksLikeHtml,
  ok,
  oneLine,
  orgQuery,
  parseJson,
} from '@/server/doctor/probe-outcome';
import { proved, undecided, type Evidence } from './evidence';
import type { DraftSession } from './session';
import { resultsPathShapes } from './shapes';

/**
 * Where each kind's results are: every shape is asked for a batch that cannot exist, and the one
 * that answers "no such batch" (an empty array of rows, or a refusal whose message is about that
 * batch) is it. A path that is not there answers otherwise: a 404 about the route, an HTML page.
 * The refusal also shows where the VMS puts an error's message.
 */

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The strings of a JSON body with their pointers, the body's own order. */
function strings(body: unknown, at = '', depth = 0): Array<[string, string]> {
  if (typeof body === 'string') return [[at, body]];
  if (depth > 4) return [];
  if (Array.isArray(body))
    return body.slice(0, 5).flatMap((item, index) => strings(item, `${at}/${index}`, depth + 1));
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([key, value]) =>
    strings(value, `${at}/${escapeToken(key)}`, depth + 1),
  );
}

/** Words of an answer about the address rather than the batch (a router's "not found"). */
const aboutRoute = /\b(route|path|operation|endpoint|url|resource)\b/i;

/**
 * Where the message about the unknown batch is: a sentence naming the batch id (not as part of
 * an echoed address, where it follows "/" or "=") or the word batch, and not the route.
 */
export function batchMessagePointer(body: unknown, batchId: string): string | null {
  for (const [pointer, text] of strings(body)) {
    if (!text.includes(' ') || aboutRoute.test(text)) continue;
    const named = text.split(batchId).length > 1 && !new RegExp(`[/=]${batchId}`).test(text);
    if (named || /batch/i.test(text)) return pointer;
  }
  return null;
}

/** Where a refusal's message is, without a batch to look for: its first sentence. */
export function messagePointer(body: unknown): string | null {
  return strings(body).find(([, text]) => text.includes(' '))?.[0] ?? null;
}

interface Found {
  path: string;
  call: string;
  answer: ProbeAnswer;
  rows: string | null;
  message: string | null;
}

function verdict(answer: ProbeAnswer, batchId: string): Pick<Found, 'rows' | 'message'> | null {
  if (looksLikeHtml(answer)) return null;
  const body = parseJson(answer.text);
  if (ok(answer)) {
    const rows = arrayPointer(body);
    const at = rows === null ? undefined : readPointer(body, rows);
    return rows !== null && Array.isArray(at) && at.length === 0 ? { rows, message: null } : null;
  }
  if (answer.status < 400 || answer.status >= 500) return null;
  const message = batchMessagePointer(body, batchId);
  return message === null ? null : { rows: null, message };
}

export interface ResultsFinding {
  paths: Partial<Record<'requisitionresults' | 'candidateresults', string>>;
  rows: Partial<Record<'requisition' | 'candidate', string>>;
  errorMessage?: string;
  /** Each kind not found, with every call tried. */
  missing: Array<{ kind: 'requisition' | 'candidate'; tried: string[] }>;
}

export async function findResults(
  session: DraftSession,
  listPath: string,
  evidence: Evidence,
): Promise<ResultsFinding> {
  const finding: ResultsFinding = { paths: {}, rows: {}, missing: [] };
  const batchId = session.unknownBatchId;
  const orgId = session.target.clientOrgIds[0] ?? 0;
  for (const kind of ['requisition', 'candidate'] as const) {
    const operation = `${kind}results` as const;
    const tried: string[] = [];
    let found: Found | null = null;
    for (const path of resultsPathShapes(kind, listPath)) {
      const profile: VmsProfile = {
        ...session.profile,
        paths: { ...session.profile.paths, [operation]: path },
      };
      const call = vmsCallPath(
        profile,
        operation,
        orgQuery(session.target, orgId, { batchid: batchId }),
      );
      const answer = await session.get(call);
      tried.push(
        `GET ${call} → ${answer.status}${ok(answer) ? '' : ` ${oneLine(answer.text, 60)}`}`,
      );
      const seen = verdict(answer, batchId);
      if (seen !== null) {
        found = { path, call, answer, ...seen };
        break;
      }
    }
    if (found === null) {
      finding.missing.push({ kind, tried });
      evidence[`paths.${operation}`] = undecided(
        `no shape answered "no such batch" for a batch that cannot exist: ${tried.length} tried`,
      );
      continue;
    }
    finding.paths[operation] = found.path;
    const what =
      found.rows !== null
        ? `an empty array of rows at "${found.rows}"`
        : `a refusal about that batch (message at "${found.message ?? ''}")`;
    evidence[`paths.${operation}`] = proved(
      `GET ${found.call} for a batch that cannot exist answered ${found.answer.status} with ${what}; ${tried.length - 1} other shape${tried.length === 2 ? '' : 's'} did not`,
    );
    if (found.rows !== null) {
      finding.rows[kind] = found.rows;
      evidence[`results.${kind}.rows`] = proved(
        `an unknown batch's results answered an empty array at "${found.rows}"`,
      );
    } else {
      evidence[`results.${kind}.rows`] = undecided(
        "an unknown batch's results are a refusal, and the draft sends no batch to read rows of",
      );
    }
    if (found.message !== null && finding.errorMessage === undefined) {
      finding.errorMessage = found.message;
      evidence['errors.message'] = proved(
        `GET ${found.call} answered ${found.answer.status} with the message about the batch at "${found.message}"`,
      );
    }
  }
  return finding;
}
