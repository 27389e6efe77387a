import { credentialVariables, type CallRequest } from './call-request';
import { nodeSigning, powershellSigning, timestampTravel } from './signing-snippets';

/**
 * "Copy as PowerShell" and "Copy as Node fetch": the same described call as the cURL command
 * (curl.ts), signed where it runs from $VMS_API_KEY and $VMS_API_SECRET by the connection's
 * signature recipe (signing-snippets.ts), the message as UTF-8.
 */

/** The call's address, with the timestamp where the recipe sends it as a query parameter. */
function withTimestampQuery(call: CallRequest, timestamp: (url: string, name: string) => string) {
  const travel = timestampTravel(call.recipe);
  return travel !== null && 'query' in travel ? timestamp(call.url, travel.query) : null;
}

/** A PowerShell single-quoted string: nothing in it is expanded; a quote is doubled. */
export function powershellQuote(text: string): string {
  return `'${text.replaceAll(/['\u2018\u2019\u201a\u201b]/g, (quote) => quote + quote)}'`;
}

/**
 * A script for Windows PowerShell 5.1 and PowerShell 7. The body is given as UTF-8 bytes: a
 * string body would be encoded by Windows PowerShell in its own default, not UTF-8.
 */
export function powershellScript(call: CallRequest): string {
  const { body, recipe } = call;
  const lines = call.notes.map((note) => `# ${note}`);
  const travel = timestampTravel(recipe);
  const bodyText =
    body === null
      ? "''"
      : body.encoding === 'base64'
        ? `[Text.Encoding]::UTF8.GetString([Convert]::FromBase64String(${powershellQuote(body.text)}))`
        : powershellQuote(body.text);
  lines.push(
    ...powershellSigning(recipe, bodyText),
    `$headers = @{`,
    ...call.headers
      .filter(({ name }) => name !== 'content-type')
      .map(({ name, value }) => `  ${powershellQuote(name)} = ${powershellQuote(value)}`),
    `  ${powershellQuote(recipe.keyHeader)} = $env:${credentialVariables.key}`,
    `  ${powershellQuote(recipe.signatureHeader)} = $signature`,
    ...(travel !== null && 'header' in travel
      ? [`  ${powershellQuote(travel.header)} = $timestamp`]
      : []),
    `}`,
  );
  const uri =
    withTimestampQuery(
      call,
      (url, name) =>
        `(${powershellQuote(url)} + '${url.includes('?') ? '&' : '?'}${name}=' + $timestamp)`,
    ) ?? powershellQuote(call.url);
  const options = [
    `-Method ${call.method === 'POST' ? 'Post' : 'Get'}`,
    `-Uri ${uri}`,
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
  const { body, recipe } = call;
  const env = (name: string) => `process.env.${name}`;
  const travel = timestampTravel(recipe);
  const headers = [
    ...call.headers.map(
      ({ name, value }) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`,
    ),
    `    ${JSON.stringify(recipe.keyHeader)}: ${env(credentialVariables.key)},`,
    `    ${JSON.stringify(recipe.signatureHeader)}: signature,`,
    ...(travel !== null && 'header' in travel
      ? [`    ${JSON.stringify(travel.header)}: timestamp,`]
      : []),
  ];
  const bodyExpression =
    body === null
      ? "''"
      : body.encoding === 'base64'
        ? `Buffer.from(${JSON.stringify(body.text)}, 'base64').toString('utf8')`
        : JSON.stringify(body.text);
  const url =
    withTimestampQuery(
      call,
      (address, name) =>
        `${JSON.stringify(`${address}${address.includes('?') ? '&' : '?'}${name}=`)} + encodeURIComponent(timestamp)`,
    ) ?? JSON.stringify(call.url);
  const lines = [
    ...call.notes.map((note) => `// ${note}`),
    ...nodeSigning(recipe, bodyExpression),
    `const response = await fetch(${url}, {`,
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
