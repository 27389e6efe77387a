import type { ApiTokenScope } from '@/domain/api-tokens';

/**
 * Which calls each scope allows (decision 037), by path prefix: the suite API for both, the VMS
 * proxy for `suites-and-sends`, and `GET /api/session` for both, so that a job can check whom its
 * token acts as. Anything else (accounts, tokens, the journal, the audit trail, per-user records)
 * needs a signed-in person: a leaked token cannot make another token or read what others sent.
 */
const scopePrefixes: Record<ApiTokenScope, readonly string[]> = {
  suites: ['/api/suites', '/api/suite-runs'],
  'suites-and-sends': ['/api/suites', '/api/suite-runs', '/api/vms'],
};

/** What each scope allows, in words, for the refusal. */
export const scopeReach: Record<ApiTokenScope, string> = {
  suites: 'the suite API (/api/suites, /api/suite-runs) and GET /api/session',
  'suites-and-sends':
    'the suite API (/api/suites, /api/suite-runs), the VMS proxy (/api/vms) and GET /api/session',
};

/**
 * A path with a dot segment (`/api/suites/../journal`), encoded or not, or an encoded slash is
 * never in scope: the router may read it otherwise than this prefix check does.
 */
function plainPath(path: string): boolean {
  return !/(^|\/)(\.|%2e){1,2}(\/|$)|%2f|%5c|\\|\/\//i.test(path);
}

/** Whether a token of `scope` may make this call (`path` without its query). */
export function inScope(scope: ApiTokenScope, method: string, path: string): boolean {
  if (path === '/api/session') return method === 'GET' || method === 'HEAD';
  if (!plainPath(path)) return false;
  return scopePrefixes[scope].some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
