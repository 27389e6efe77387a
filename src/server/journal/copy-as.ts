import { credentialVariables, signingHeaders, type CallRequest } from './call-request';

/**
 * "Copy as PowerShell" and "Copy as Node fetch": the same described call as the cURL command
 * (curl.ts), signed where it runs from $VMS_API_KEY and $VMS_API_SECRET, the same signature:
 * lowercase hex SHA-256 of key + secret + Unix seconds, as UTF-8.
 */

/** A PowerShell single-quoted string: nothing in it is expanded; a quote is doubled. */
export function powershellQuote(text: string): string {
  return `'${text.replaceAll(/['\u2018\u2019\u201a\u201b]/g, (quote) => quote + quote)}'`;
}

/**
 * A script for Windows PowerShell 5.1 and PowerShell 7. The body is given as UTF-8 bytes: a
 * string body would be encoded by Windows PowerShell in its own default, not UTF-8.
 */
export function powershellScript(call: CallRequest): string {
  const { body } = call;
  const lines = call.notes.map((note) => `# ${note}`);
  lines.push(
    `$seconds = [DateTimeOffset]::UtcNow.ToUnixTimeSeconds()`,
    `$signed = [Text.Encoding]::UTF8.GetBytes("$env:${credentialVariables.key}$env:${credentialVariables.secret}$seconds")`,
    `$signature = -join ([Security.Cryptography.SHA256]::Create().ComputeHash($signed) | ForEach-Object { $_.ToString('x2') })`,
    `$headers = @{`,
    ...call.headers
      .filter(({ name }) => name !== 'content-type')
      .map(({ name, value }) => `  ${powershellQuote(name)} = ${powershellQuote(value)}`),
    `  ${powershellQuote(signingHeaders.key)} = $env:${credentialVariables.key}`,
    `  ${powershellQuote(signingHeaders.signature)} = $signature`,
    `}`,
  );
  const options = [
    `-Method ${call.method === 'POST' ? 'Post' : 'Get'}`,
    `-Uri ${powershellQuote(call.url)}`,
    '-Headers $headers',
  ];
  if (body !== null) {
    lines.push(
      body.encoding === 'base64'
        ? `$body = [Convert]::FromBase64String(${powershellQuote(body.text)})`
        : `$body = [Text.Encoding]::UTF8.GetBytes(${powershellQuote(body.text)})`,
    );
    options.push(`-ContentType 'application/json'`, '-Body $body');
  }
  lines.push(`Invoke-RestMethod ${options.join(' `\n  ')}`);
  return lines.join('\n');
}

/**
 * A Node script (an ES module, Node 18 or later: `node --input-type=module < call.mjs`) that
 * sends the call with the built-in fetch and prints the status and the answer.
 */
export function fetchScript(call: CallRequest): string {
  const { body } = call;
  const env = (name: string) => `process.env.${name}`;
  const headers = [
    ...call.headers.map(
      ({ name, value }) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`,
    ),
    `    ${JSON.stringify(signingHeaders.key)}: ${env(credentialVariables.key)},`,
    `    ${JSON.stringify(signingHeaders.signature)}: signature,`,
  ];
  const lines = [
    ...call.notes.map((note) => `// ${note}`),
    `import { createHash } from 'node:crypto';`,
    '',
    'const seconds = Math.floor(Date.now() / 1000);',
    `const signature = createHash('sha256')`,
    `  .update(\`\${${env(credentialVariables.key)}}\${${env(credentialVariables.secret)}}\${seconds}\`)`,
    `  .digest('hex');`,
    `const response = await fetch(${JSON.stringify(call.url)}, {`,
    `  method: ${JSON.stringify(call.method)},`,
    '  headers: {',
    ...headers,
    '  },',
    ...(body === null
      ? []
      : [
          body.encoding === 'base64'
            ? `  body: Buffer.from(${JSON.stringify(body.text)}, 'base64'),`
            : `  body: ${JSON.stringify(body.text)},`,
        ]),
    '});',
    'console.log(response.status, await response.text());',
  ];
  return lines.join('\n');
}
