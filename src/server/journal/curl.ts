import type { JournalCurl, JournalEntry } from '../../domain/journal';
import type { VmsOperation } from '../../domain/vms-contract';

/**
 * "Copy as cURL" (issue 14): the call again, straight to the VMS, signed by the shell from
 * $VMS_API_KEY and $VMS_API_SECRET, so the command holds no key, secret or signature. The
 * signature is the lowercase hex SHA-256 of key + secret + Unix seconds (src/node/signature.ts,
 * decisions.md "Authentication"): `printf` joins the three without a newline, `openssl dgst -r`
 * prints "<hex> *stdin" in OpenSSL 1.1 and 3 alike, `cut` keeps the hex.
 */
export const signatureSnippet =
  'printf \'%s%s%s\' "$VMS_API_KEY" "$VMS_API_SECRET" "$(date +%s)" | openssl dgst -sha256 -r | cut -d\' \' -f1';

/** A POSIX shell single-quoted word: nothing in it is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The query of the call as forwarded (the org ids as checked), or as received. */
function queryOf(entry: JournalEntry): string {
  const source = entry.url ?? entry.path;
  const at = source.indexOf('?');
  return at < 0 ? '' : source.slice(at);
}

/**
 * The command for a call to `operation`, against `upstreamUrl` (the configured VMS base, ending
 * in `/`). The body goes through `printf` (a shell builtin, so no argument-length limit) into
 * `--data-binary @-`, byte for byte.
 */
export function curlFor(
  entry: JournalEntry,
  operation: VmsOperation,
  upstreamUrl: string,
): JournalCurl {
  const url = `${upstreamUrl}${operation}${queryOf(entry)}`;
  const body = entry.method === 'POST' ? entry.requestBody : null;
  const lines: string[] = [];
  if (body?.truncated) {
    lines.push(
      `# The journal kept only part of this body (${body.size} bytes, JOURNAL_BODY_LIMIT_KB): this sends that part.`,
    );
  }
  if (body?.redacted) {
    lines.push('# A secret in this body was replaced by [redacted] in the journal.');
  }
  const feed =
    body === null
      ? ''
      : body.encoding === 'base64'
        ? `printf '%s' ${shellQuote(body.text)} | base64 -d | `
        : `printf '%s' ${shellQuote(body.text)} | `;
  const options = [
    `--request ${entry.method === 'POST' ? 'POST' : 'GET'}`,
    `--url ${shellQuote(url)}`,
    `--header 'accept: application/json'`,
    ...(body === null ? [] : [`--header 'content-type: application/json'`]),
    '--header "x-api-key: $VMS_API_KEY"',
    `--header "x-signature: $(${signatureSnippet})"`,
    ...(body === null ? [] : ['--data-binary @-']),
  ];
  lines.push(`${feed}curl --silent --show-error ${options.join(' \\\n  ')}`);
  return { curl: lines.join('\n'), snippet: signatureSnippet };
}
