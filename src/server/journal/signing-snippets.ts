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

// --- POSIX shell -------------------------------------------------------------------------

const shellTimestamp = {
  'unix-seconds': 'date +%s',
  'unix-milliseconds': 'date +%s%3N',
  'iso-8601': 'date -u +%Y-%m-%dT%H:%M:%SZ',
} as const;

/**
 * The shell: lines to run first (the timestamp, when it travels: `ts`), and the expression that
 * prints the signature. `bodyWord` is the body as a quoted shell word, for a recipe that signs it.
 */
export function shellSigning(
  recipe: SignatureRecipe,
  bodyWord: string,
): { prelude: string[]; signature: string; timestamp: string } {
  const prelude = travels(recipe) ? [`ts="$(${shellTimestamp[recipe.timestamp.form]})"`] : [];
  const timestamp = travels(recipe) ? '"$ts"' : `"$(${shellTimestamp[recipe.timestamp.form]})"`;
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

const nodeTimestamp = {
  'unix-seconds': 'String(Math.floor(Date.now() / 1000))',
  'unix-milliseconds': 'String(Date.now())',
  'iso-8601': "new Date().toISOString().replace(/\\.\\d{3}Z$/, 'Z')",
} as const;

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
    `const timestamp = ${nodeTimestamp[recipe.timestamp.form]};`,
    `const signature = ${hmac ? `createHmac('${algorithm}', ${env(credentialVariables.secret)})` : `createHash('${algorithm}')`}`,
    `  .update([${recipe.order.map((name) => part[name]).join(', ')}].join(''))`,
    `  .digest('${recipe.encoding === 'base64' ? 'base64' : 'hex'}')${recipe.encoding === 'HEX' ? '.toUpperCase()' : ''};`,
  ];
}

// --- PowerShell ----------------------------------------------------------------------------

const powershellTimestamp = {
  'unix-seconds': '[string][DateTimeOffset]::UtcNow.ToUnixTimeSeconds()',
  'unix-milliseconds': '[string][DateTimeOffset]::UtcNow.ToUnixTimeMilliseconds()',
  'iso-8601': `[DateTime]::UtcNow.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'")`,
} as const;

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
    `$timestamp = ${powershellTimestamp[recipe.timestamp.form]}`,
    `$signed = [Text.Encoding]::UTF8.GetBytes(${recipe.order.map((name) => part[name]).join(' + ')})`,
    `$hash = ${hasher}.ComputeHash($signed)`,
    `$signature = ${encode}`,
  ];
}
