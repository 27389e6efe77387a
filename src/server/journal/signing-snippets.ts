import { datePatternParts } from '@/domain/date-patterns';
import type { SignaturePart, SignatureRecipe } from '@/domain/vms-profile';
import { credentialVariables } from './call-request';

/**
 * How each "Copy as" language signs a call by the connection's signature recipe, where it runs,
 * from $VMS_API_KEY and $VMS_API_SECRET: the same recipe the proxy signs with
 * (src/node/signature.ts), written as shell, PowerShell and Node. A recipe whose timestamp
 * travels with the call makes it once and uses it twice (in the message and in its header or
 * query parameter), so the two always agree.
 */

/** Where the timestamp goes besides the signature, if anywhere. */
export function timestampTravel(
  recipe: SignatureRecipe,
): { header: string } | { query: string } | null {
  const { travel } = recipe.timestamp;
  return travel === 'none' ? null : travel;
}

const travels = (recipe: SignatureRecipe) =>
  recipe.order.includes('timestamp') && timestampTravel(recipe) !== null;

const opensslDigest = {
  sha256: 'sha256',
  sha512: 'sha512',
  'hmac-sha256': 'sha256',
  'hmac-sha512': 'sha512',
};

/**
 * A pattern timestamp in a language's own terms: each token's word, each literal as `literal`
 * writes it; null for a named form. The pattern is in UTC, as the proxy signs it.
 */
function patternIn(
  form: string,
  token: Record<string, string>,
  literal: (text: string) => string,
): string[] | null {
  const parts = datePatternParts(form);
  return (
    parts?.map((part) => ('token' in part ? (token[part.token] ?? '') : literal(part.literal))) ??
    null
  );
}

const singleQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

// --- POSIX shell -------------------------------------------------------------------------

const shellTimestamps: Record<string, string> = {
  'unix-seconds': 'date +%s',
  'unix-milliseconds': 'date +%s%3N',
  'iso-8601': 'date -u +%Y-%m-%dT%H:%M:%SZ',
};

/** GNU date's conversions for the pattern tokens (`%-m`: no padding). */
const strftime: Record<string, string> = {
  YYYY: '%Y',
  MM: '%m',
  M: '%-m',
  DD: '%d',
  D: '%-d',
  HH: '%H',
  H: '%-H',
  hh: '%I',
  h: '%-I',
  A: '%p',
  mm: '%M',
  ss: '%S',
  SSS: '%3N',
};

function shellTimestamp(form: string): string {
  const format = patternIn(form, strftime, (text) => text.replaceAll('%', '%%'));
  // LC_ALL=C: %p is AM or PM only in the C locale.
  return format === null
    ? (shellTimestamps[form] ?? '')
    : `LC_ALL=C date -u +${singleQuoted(format.join(''))}`;
}

/**
 * The shell: lines to run first (the timestamp, when it travels: `ts`), and the expression that
 * prints the signature. `bodyWord` is the body as a quoted shell word, for a recipe that signs it.
 */
export function shellSigning(
  recipe: SignatureRecipe,
  bodyWord: string,
): { prelude: string[]; signature: string; timestamp: string } {
  const prelude = travels(recipe) ? [`ts="$(${shellTimestamp(recipe.timestamp.form)})"`] : [];
  const timestamp = travels(recipe) ? '"$ts"' : `"$(${shellTimestamp(recipe.timestamp.form)})"`;
  const word: Record<SignaturePart, string> = {
    key: `"$${credentialVariables.key}"`,
    secret: `"$${credentialVariables.secret}"`,
    timestamp,
    body: bodyWord,
  };
  const hmac = recipe.hash.startsWith('hmac-') ? ` -hmac "$${credentialVariables.secret}"` : '';
  const digest = `openssl dgst -${opensslDigest[recipe.hash]}${hmac}`;
  const encoded =
    recipe.encoding === 'base64'
      ? `${digest} -binary | openssl base64 -A`
      : `${digest} -r | cut -d' ' -f1${recipe.encoding === 'HEX' ? ' | tr a-f A-F' : ''}`;
  return {
    prelude,
    signature: `printf '${'%s'.repeat(recipe.order.length)}' ${recipe.order.map((part) => word[part]).join(' ')} | ${encoded}`,
    timestamp: '$ts',
  };
}

// --- Node ----------------------------------------------------------------------------------

const nodeTimestamps: Record<string, string> = {
  'unix-seconds': 'String(Math.floor(Date.now() / 1000))',
  'unix-milliseconds': 'String(Date.now())',
  'iso-8601': "new Date().toISOString().replace(/\\.\\d{3}Z$/, 'Z')",
};

/** Each token as a slice of `t`, an ISO 8601 UTC time such as 2026-11-27T10:15:30.456Z. */
const isoSlices: Record<string, string> = {
  YYYY: 't.slice(0, 4)',
  MM: 't.slice(5, 7)',
  M: 'String(+t.slice(5, 7))',
  DD: 't.slice(8, 10)',
  D: 'String(+t.slice(8, 10))',
  HH: 't.slice(11, 13)',
  H: 'String(+t.slice(11, 13))',
  hh: "String(+t.slice(11, 13) % 12 || 12).padStart(2, '0')",
  h: 'String(+t.slice(11, 13) % 12 || 12)',
  A: "(+t.slice(11, 13) < 12 ? 'AM' : 'PM')",
  mm: 't.slice(14, 16)',
  ss: 't.slice(17, 19)',
  SSS: 't.slice(20, 23)',
};

function nodeTimestamp(form: string): string {
  const pieces = patternIn(form, isoSlices, (text) => JSON.stringify(text));
  return pieces === null
    ? (nodeTimestamps[form] ?? '')
    : `((t) => ${pieces.join(' + ')})(new Date().toISOString())`;
}

/** Node: the import and the lines that set `timestamp` and `signature`. */
export function nodeSigning(recipe: SignatureRecipe, bodyExpression: string): string[] {
  const env = (name: string) => `process.env.${name}`;
  const part: Record<SignaturePart, string> = {
    key: env(credentialVariables.key),
    secret: env(credentialVariables.secret),
    timestamp: 'timestamp',
    body: bodyExpression,
  };
  const hmac = recipe.hash.startsWith('hmac-');
  const algorithm = opensslDigest[recipe.hash];
  return [
    `import { ${hmac ? 'createHmac' : 'createHash'} } from 'node:crypto';`,
    '',
    `const timestamp = ${nodeTimestamp(recipe.timestamp.form)};`,
    `const signature = ${hmac ? `createHmac('${algorithm}', ${env(credentialVariables.secret)})` : `createHash('${algorithm}')`}`,
    `  .update([${recipe.order.map((name) => part[name]).join(', ')}].join(''))`,
    `  .digest('${recipe.encoding === 'base64' ? 'base64' : 'hex'}')${recipe.encoding === 'HEX' ? '.toUpperCase()' : ''};`,
  ];
}

// --- PowerShell ----------------------------------------------------------------------------

const powershellTimestamps: Record<string, string> = {
  'unix-seconds': '[string][DateTimeOffset]::UtcNow.ToUnixTimeSeconds()',
  'unix-milliseconds': '[string][DateTimeOffset]::UtcNow.ToUnixTimeMilliseconds()',
  'iso-8601': `[DateTime]::UtcNow.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'")`,
};

/** .NET's custom date and time format specifiers for the pattern tokens. */
const dotnetFormat: Record<string, string> = {
  YYYY: 'yyyy',
  MM: 'MM',
  M: 'M',
  DD: 'dd',
  D: 'd',
  HH: 'HH',
  H: 'H',
  hh: 'hh',
  h: 'h',
  A: 'tt',
  mm: 'mm',
  ss: 'ss',
  SSS: 'fff',
};

function powershellTimestamp(form: string): string {
  // Each literal character escaped with a backslash, a quote doubled for PowerShell's own
  // single-quoted string.
  const format = patternIn(form, dotnetFormat, (text) =>
    [...text].map((char) => (char === "'" ? "\\''" : `\\${char}`)).join(''),
  );
  return format === null
    ? (powershellTimestamps[form] ?? '')
    : `[DateTime]::UtcNow.ToString('${format.join('')}', [Globalization.CultureInfo]::InvariantCulture)`;
}

/** PowerShell: the lines that set `$timestamp` and `$signature`. */
export function powershellSigning(recipe: SignatureRecipe, bodyExpression: string): string[] {
  const part: Record<SignaturePart, string> = {
    key: `$env:${credentialVariables.key}`,
    secret: `$env:${credentialVariables.secret}`,
    timestamp: '$timestamp',
    body: bodyExpression,
  };
  const size = recipe.hash.endsWith('512') ? '512' : '256';
  const hasher = recipe.hash.startsWith('hmac-')
    ? `(New-Object Security.Cryptography.HMACSHA${size} (,[Text.Encoding]::UTF8.GetBytes($env:${credentialVariables.secret})))`
    : `[Security.Cryptography.SHA${size}]::Create()`;
  const encode =
    recipe.encoding === 'base64'
      ? '[Convert]::ToBase64String($hash)'
      : `-join ($hash | ForEach-Object { $_.ToString('${recipe.encoding === 'HEX' ? 'X2' : 'x2'}') })`;
  return [
    `$timestamp = ${powershellTimestamp(recipe.timestamp.form)}`,
    `$signed = [Text.Encoding]::UTF8.GetBytes(${recipe.order.map((name) => part[name]).join(' + ')})`,
    `$hash = ${hasher}.ComputeHash($signed)`,
    `$signature = ${encode}`,
  ];
}
