/**
 * Paths as the portal writes them down: in the audit trail, the call journal, log lines and
 * metrics labels. Some paths carry a secret in a segment (a one-time invite link is its token);
 * written as they came, that secret would sit in the database, its WAL, every backup and every
 * log shipper, readable by anyone who can read those. Every place that records a path takes it
 * from recordedPath, which replaces each such segment with [redacted] and drops the query.
 */

/** What stands where a secret segment was. */
export const redactedSegment = '[redacted]';

/**
 * Every path, of the API or of the app's pages, with a segment that is a secret, written as its
 * route is (`:name` marks a parameter, `*` a parameter that is the secret). A route that takes a
 * secret in its path is added here the day it is made: src/server/http/recorded-path.test.ts
 * fails for any registered route whose parameter is neither here nor known to be plain.
 */
export const secretPaths = [
  // The one-time link an admin sends a new user, and the page it opens.
  '/api/invites/*',
  '/invite/*',
] as const;

/** The name the routes give a parameter that is a secret (checked against secretPaths by test). */
export const secretParams = ['token'] as const;

interface SecretPath {
  /** Each segment: a literal to match, or null for the secret itself. */
  segments: (string | null)[];
}

const compiled: SecretPath[] = secretPaths.map((path) => ({
  segments: path
    .split('/')
    .slice(1)
    .map((segment) => (segment === '*' ? null : segment)),
}));

/**
 * A request's URL as it may be recorded: without its query (where a sign-in callback's code
 * travels), and with each secret segment replaced. Segments are compared as a router might read
 * them (percent-decoded, any case, empty ones skipped), so a refused `/API//invites/<token>` is
 * recorded without its token too; anything after the secret is kept.
 */
export function recordedPath(url: string): string {
  const queryAt = url.indexOf('?');
  return redactedSegments(queryAt < 0 ? url : url.slice(0, queryAt));
}

/**
 * A URL with its query kept (the call journal shows a VMS call's query: filters, never the
 * portal's secrets, which the credential scrub removes) and its secret segments replaced.
 */
export function recordedUrl(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0
    ? redactedSegments(url)
    : redactedSegments(url.slice(0, queryAt)) + url.slice(queryAt);
}

function redactedSegments(path: string): string {
  const parts = path.split('/');
  // Where each non-empty segment stands in parts.
  const filled: number[] = [];
  parts.forEach((part, at) => {
    if (part !== '') filled.push(at);
  });
  for (const secret of compiled) {
    if (filled.length < secret.segments.length) continue;
    const matches = secret.segments.every(
      (segment, at) =>
        segment === null || decodeSegment(parts[filled[at] ?? 0] ?? '').toLowerCase() === segment,
    );
    if (!matches) continue;
    secret.segments.forEach((segment, at) => {
      if (segment === null) parts[filled[at] ?? 0] = redactedSegment;
    });
  }
  return parts.join('/');
}

/** A segment as the router reads it (`%69nvites` is `invites`); one that is not valid stays as is. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
