import type { JournalCurl, JournalEntry } from '@/domain/journal';
import type { VmsOperation } from '@/domain/vms-contract';
import {
  sandboxSignatureRecipe,
  type SignatureRecipe,
  type VmsProfile,
} from '@/domain/vms-profile';
import { credentialVariables, vmsRequest, vmsUrlFor, type CallRequest } from './call-request';
import { fetchScript, powershellScript } from './copy-as';
import { shellSigning, timestampTravel } from './signing-snippets';

/**
 * "Copy as cURL": the call again, straight to the VMS, signed by the shell from $VMS_API_KEY and
 * $VMS_API_SECRET by the connection's signature recipe (signing-snippets.ts), so the command holds
 * no key, secret or signature. For the default recipe (lowercase hex SHA-256 of key + secret +
 * Unix seconds): `printf` joins the three without a newline, `openssl dgst -r` prints
 * "<hex> *stdin" in OpenSSL 1.1 and 3 alike, `cut` keeps the hex.
 */
export function signatureSnippet(
  recipe: SignatureRecipe = sandboxSignatureRecipe,
  bodyWord = "''",
) {
  return shellSigning(recipe, bodyWord).signature;
}

/** A POSIX shell single-quoted word: nothing in it is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command for a described call. The body goes through `printf` (a shell builtin, so no
 * argument-length limit) into `--data-binary @-`, byte for byte.
 */
export function curlCommand(call: CallRequest): string {
  const { body, recipe } = call;
  const lines = call.notes.map((note) => `# ${note}`);
  const bodyWord =
    body === null
      ? "''"
      : body.encoding === 'base64'
        ? `"$(printf '%s' ${shellQuote(body.text)} | base64 -d)"`
        : shellQuote(body.text);
  const signing = shellSigning(recipe, bodyWord);
  lines.push(...signing.prelude);
  const feed =
    body === null
      ? ''
      : body.encoding === 'base64'
        ? `printf '%s' ${shellQuote(body.text)} | base64 -d | `
        : `printf '%s' ${shellQuote(body.text)} | `;
  const travel = timestampTravel(recipe);
  const url =
    travel !== null && 'query' in travel
      ? `${shellQuote(call.url)}"${call.url.includes('?') ? '&' : '?'}${travel.query}=${signing.timestamp}"`
      : shellQuote(call.url);
  const options = [
    `--request ${call.method}`,
    `--url ${url}`,
    ...call.headers.map(({ name, value }) => `--header ${shellQuote(`${name}: ${value}`)}`),
    `--header "${recipe.keyHeader}: $${credentialVariables.key}"`,
    `--header "${recipe.signatureHeader}: $(${signing.signature})"`,
    ...(travel !== null && 'header' in travel
      ? [`--header "${travel.header}: ${signing.timestamp}"`]
      : []),
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
  profile: VmsProfile | null = null,
): JournalCurl {
  const recipe = profile?.signature ?? sandboxSignatureRecipe;
  const call = vmsRequest(entry, vmsUrlFor(entry, operation, upstreamUrl, profile), recipe);
  return {
    curl: curlCommand(call),
    snippet: signatureSnippet(recipe),
    powershell: powershellScript(call),
    fetch: fetchScript(call),
  };
}
