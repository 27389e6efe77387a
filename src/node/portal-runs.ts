import { suiteRunSchema, type StartRun, type SuiteRun } from '@/domain/suite-run';
import type { PortalAnswer } from './suite-run';
import { messageOf, codeOf } from './suite-run';

/**
 * The client of the portal's run API that `npm run suite` uses: a run started on a portal, and
 * waited for until it ends, with the portal's refusals in the command's words.
 */

/** The portal `npm run suite` talks to. */
export interface PortalTarget {
  /** The portal's address, e.g. http://127.0.0.1:8787 */
  portal: string;
  /**
   * A personal API token (`vmsp_…`), sent as `Authorization: Bearer` on every call, for a portal
   * with sign-in on (decision 037).
   */
  token?: string | undefined;
}

/** The environment variable a CI job puts its personal API token in (the command reads it). */
export const portalTokenEnv = 'VMS_PORTAL_TOKEN';

/** The portal could not be used: unreachable, sign-in, a refusal. The message says what to do. */
export class RunError extends Error {
  override name = 'RunError';
}

/**
 * The portal refused the command's credentials: no token for a portal with sign-in on, a token
 * revoked, expired or unknown (401), or one whose scope does not reach the suite API (403).
 */
export class AccessRefused extends RunError {
  override name = 'AccessRefused';
}

/**
 * One call to the portal's API. The one place the command's requests get their headers, so
 * whatever identifies the command to a portal with sign-in on is added here, once.
 */
export async function call(
  target: PortalTarget,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<PortalAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  let response: Response;
  try {
    response = await fetch(new URL(path, target.portal), {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new RunError(
      `the portal at ${target.portal} could not be reached (${error instanceof Error ? error.message : String(error)}): check --portal and that it runs`,
    );
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Left null: the status and text say what happened.
  }
  return { status: response.status, json, text };
}

/** The portal's words on one line, cut to a length a CI log shows whole. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 300);

/** Why the portal refused a call of the command, in the command's words. */
function refusal(target: PortalTarget, answer: PortalAnswer, what: string): RunError {
  const said = messageOf(answer);
  // Credentials refused: no case can run, so one line says why and what to do, nothing more.
  if (answer.status === 401) {
    return new AccessRefused(
      target.token
        ? `the portal refused the API token (401): ${oneLine(said)}`
        : `the portal at ${target.portal} needs sign-in (401): pass --token or set ${portalTokenEnv} to a personal API token from your Account page`,
    );
  }
  if (answer.status === 403 && codeOf(answer) === 'token_scope') {
    return new AccessRefused(`the portal refused the API token (403): ${oneLine(said)}`);
  }
  if (answer.status === 403) return new RunError(`${what}: refused (403): ${said}`);
  if (answer.status === 404 && codeOf(answer) === null) {
    return new RunError(
      `${what}: ${answer.status} from ${said.slice(0, 100)}: is --portal the address of a VMS portal?`,
    );
  }
  return new RunError(`${what}: ${answer.status}: ${said}`);
}

/** Starts a run on the portal (`POST /api/suite-runs`). */
export async function startRun(target: PortalTarget, body: StartRun): Promise<SuiteRun> {
  const answer = await call(target, 'POST', '/api/suite-runs', body);
  if (answer.status !== 202) throw refusal(target, answer, 'the run was not started');
  const run = suiteRunSchema.safeParse(answer.json);
  if (!run.success)
    throw new RunError(
      'the portal answered the run in a shape this command does not know: is it the same release?',
    );
  return run.data;
}

/**
 * Waits for a run to end, reading it as it goes (the portal answers as soon as more cases are
 * done, or after a while); `onProgress` is told each change.
 */
export async function waitForRun(
  target: PortalTarget,
  id: number,
  onProgress: (run: SuiteRun) => void,
): Promise<SuiteRun> {
  let seen = -1;
  for (;;) {
    // The first read answers at once; then the portal answers when more cases are done.
    const answer = await call(
      target,
      'GET',
      `/api/suite-runs/${id}${seen < 0 ? '' : `?waitMs=20000&seen=${seen}`}`,
    );
    if (answer.status !== 200) throw refusal(target, answer, `run ${id} could not be read`);
    const parsed = suiteRunSchema.safeParse(answer.json);
    if (!parsed.success)
      throw new RunError(`run ${id} came back in a shape this command does not know`);
    const run = parsed.data;
    if (run.casesDone !== seen || run.status !== 'running') onProgress(run);
    seen = run.casesDone;
    if (run.status !== 'running') return run;
  }
}
