import type { JournalCurl, JournalEntry } from '../../domain/journal';
import type { VmsOperation } from '../../domain/vms-contract';
import {
  credentialVariables,
  signingHeaders,
  vmsRequest,
  vmsUrlFor,
  type CallRequest,
} from './call-request';
import { fetchScript, powershellScript } from './copy-as';

/**
 * "Copy as cURL": the call again, straight to the VMS, signed by the shell from $VMS_API_KEY and
 * $VMS_API_SECRET, so the command holds no key, secret or signature. The signature is the
 * lowercase hex SHA-256 of key + secret + Unix seconds (src/node/signature.ts, decision 032): `printf` joins the three without a newline, `openssl dgst -r` prints
 * "<hex> *stdin" in OpenSSL 1.1 and 3 alike, `cut` keeps the hex.
 */
export const signatureSnippet = `printf '%s%s%s' "$${credentialVariables.key}" "$${credentialVariables.secret}" "$(date +%s)" | openssl dgst -sha256 -r | cut -d' ' -f1`;

/** A POSIX shell single-quoted word: nothing in it is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command for a described call. The body goes through `printf` (a shell builtin, so no
 * argument-length limit) into `--data-binary @-`, byte for byte.
 */
export function curlCommand(call: CallRequest): string {
  const { body } = call;
  const lines = call.notes.map((note) => `# ${note}`);
  const feed =
    body === null
      ? ''
      : body.encoding === 'base64'
        ? `printf '%s' ${shellQuote(body.text)} | base64 -d | `
        : `printf '%s' ${shellQuote(body.text)} | `;
  const options = [
    `--request ${call.method}`,
    `--url ${shellQuote(call.url)}`,
    ...call.headers.map(({ name, value }) => `--header ${shellQuote(`${name}: ${value}`)}`),
    `--header "${signingHeaders.key}: $${credentialVariables.key}"`,
    `--header "${signingHeaders.signature}: $(${signatureSnippet})"`,
    ...(body === null ? [] : ['--data-binary @-']),
  ];
  lines.push(`${feed}curl --silent --show-error ${options.join(' \\\n  ')}`);
  return lines.join('\n');
}

/**
 * The call to `operation` again against `upstreamUrl` (the configured VMS base, ending in `/`),
 * as cURL with its signature snippet, as PowerShell and as a Node script: one description of the
 * request, written three ways.
 */
export function curlFor(
  entry: JournalEntry,
  operation: VmsOperation,
  upstreamUrl: string,
): JournalCurl {
  const call = vmsRequest(entry, vmsUrlFor(entry, operation, upstreamUrl));
  return {
    curl: curlCommand(call),
    snippet: signatureSnippet,
    powershell: powershellScript(call),
    fetch: fetchScript(call),
  };
}
