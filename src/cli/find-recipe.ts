/**
 * `npm run doctor -- find-recipe --key KEY --timestamp TS --signature SIG (--secret-env NAME |
 * --secret-stdin) [--body-file PATH] [--json]`: which signature recipe a VMS uses, from one
 * request its documentation or its own client signed. Every recipe of `everyRecipe()` is tried;
 * the match is printed as a sentence and as the JSON for a profile's `signature` key. Exit 0 when
 * a recipe matches, 1 when none does, 2 when the command is wrong (one line on stderr).
 *
 * The secret is never taken from a flag's value, which would stay in the shell's history and in
 * the process list, and never printed.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { SignatureRecipe } from '@/domain/vms-profile/signature-recipe';
import {
  describeRecipe,
  encodingsOf,
  everyRecipe,
  foundTimestampPatterns,
  guessedTimestampHeader,
  timestampFormsOf,
} from '@/domain/vms-profile/signature-recipe';
import { findRecipes } from '@/node/signature';
import { cannotRead, usageFailure, UsageError } from './usage-error';

export const findRecipeUsage =
  'usage: npm run doctor -- find-recipe --key KEY --timestamp TS --signature SIG (--secret-env NAME | --secret-stdin) [--body-file PATH] [--json]';

export interface Io {
  env: Record<string, string | undefined>;
  /** All of standard input, for --secret-stdin. */
  readStdin(): Promise<string>;
}

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

interface Example {
  apiKey: string;
  secret: string;
  timestamp: string;
  signature: string;
  body: Buffer;
  json: boolean;
}

async function parseCommand(argv: string[], io: Io): Promise<Example> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      key: { type: 'string' },
      timestamp: { type: 'string' },
      signature: { type: 'string' },
      'body-file': { type: 'string' },
      'secret-env': { type: 'string' },
      'secret-stdin': { type: 'boolean' },
      // Declared only to refuse it by name, without ever echoing its value.
      secret: { type: 'string' },
      json: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (values.secret !== undefined)
    throw new UsageError(
      '--secret is refused: a secret in a flag stays in the shell history and the process list; ' +
        'put it in an environment variable and pass --secret-env NAME, or pipe it with --secret-stdin',
    );
  if (positionals.length > 0)
    throw new UsageError(`unexpected argument ${positionals[0]}; ${findRecipeUsage}`);
  const { key, timestamp, signature } = values;
  for (const [name, value] of [
    ['--key', key],
    ['--timestamp', timestamp],
    ['--signature', signature],
  ] as const) {
    if (value === undefined) throw new UsageError(`${name} is missing; ${findRecipeUsage}`);
  }
  if (timestampFormsOf(timestamp ?? '').length === 0)
    throw new UsageError(
      '--timestamp must be written as it was signed: 10 digits (Unix seconds), 13 digits (Unix ' +
        'milliseconds), ISO 8601 UTC to the second such as 2026-11-27T10:15:30Z, or a UTC time ' +
        `in one of ${foundTimestampPatterns.join(', ')}`,
    );
  if (encodingsOf(signature ?? '').length === 0)
    throw new UsageError('--signature must be hex or base64 text, exactly as it was sent');
  const secret = await readSecret(values['secret-env'], values['secret-stdin'] === true, io);
  let body = Buffer.alloc(0);
  const bodyFile = values['body-file'];
  if (bodyFile !== undefined) {
    try {
      body = readFileSync(bodyFile);
    } catch (error) {
      throw cannotRead(bodyFile, error);
    }
  }
  return {
    apiKey: key ?? '',
    secret,
    timestamp: timestamp ?? '',
    signature: signature ?? '',
    body,
    json: values.json === true,
  };
}

async function readSecret(envName: string | undefined, stdin: boolean, io: Io): Promise<string> {
  if ((envName === undefined) === !stdin)
    throw new UsageError(
      `give the secret one way: --secret-env NAME (an environment variable holding it) or --secret-stdin; ${findRecipeUsage}`,
    );
  if (envName !== undefined) {
    const secret = io.env[envName];
    if (secret === undefined)
      throw new UsageError(
        `the environment variable ${envName} is not set; export it with the secret, or use --secret-stdin`,
      );
    return secret;
  }
  const text = await io.readStdin();
  // One line: the first, without its line ending (echo and most editors add one).
  return text.split(/\r?\n/)[0] ?? '';
}

interface Report {
  matched: boolean;
  /** How many recipes were tried in all. */
  space: number;
  matches: Array<{ description: string; signature: SignatureRecipe }>;
  notes: string[];
}

function notesFor(example: Example, matches: SignatureRecipe[]): string[] {
  const notes: string[] = [];
  if (matches.length > 1)
    notes.push(
      `${matches.length} recipes reproduce this signature and this example cannot tell them apart ` +
        '(an empty key or secret has no place in the message); try an example with a non-empty key and secret.',
    );
  if (example.body.length === 0)
    notes.push(
      'The example has no body, so recipes that sign the body were not tried (an empty body ' +
        'changes nothing); if the VMS signs bodies, give --body-file with a POST body signed at that timestamp.',
    );
  if (matches.length > 0)
    notes.push(
      matches.some((recipe) => recipe.timestamp.form === 'unix-milliseconds')
        ? `A signature does not show where the timestamp travels; milliseconds must travel, so the ${guessedTimestampHeader} header is a guess: set signature.timestamp.travel to the header or query parameter the VMS reads.`
        : 'A signature does not show where the timestamp travels; "none" is assumed: if the VMS reads it from a header or query parameter, set signature.timestamp.travel to { "header": NAME } or { "query": NAME }.',
    );
  return notes;
}

function human(report: Report): string {
  const lines: string[] = [];
  if (!report.matched) {
    lines.push(
      `No recipe matches: none of the ${report.space} recipes tried (hash × order × timestamp form × encoding) reproduces this signature.`,
      'Check the key and the secret, that the timestamp is exactly the one signed, and the body (byte for byte).',
    );
  } else {
    lines.push(
      report.matches.length === 1
        ? 'One recipe reproduces this signature:'
        : `${report.matches.length} recipes reproduce this signature:`,
    );
    for (const match of report.matches) {
      lines.push('', `  ${match.description}`, '', '  For the profile\'s "signature" key:', '');
      lines.push(
        ...JSON.stringify(match.signature, null, 2)
          .split('\n')
          .map((line) => `  ${line}`),
      );
    }
  }
  if (report.notes.length > 0) lines.push('', ...report.notes.map((note) => `Note: ${note}`));
  return `${lines.join('\n')}\n`;
}

export async function main(argv: string[], io: Io): Promise<Result> {
  if (argv.includes('--help') || argv.includes('-h'))
    return { code: 0, stdout: `${findRecipeUsage}\n`, stderr: '' };
  try {
    const example = await parseCommand(argv, io);
    const matches = findRecipes(example);
    const report: Report = {
      matched: matches.length > 0,
      space: everyRecipe().length,
      matches: matches.map((signature) => ({ description: describeRecipe(signature), signature })),
      notes: notesFor(example, matches),
    };
    return {
      code: report.matched ? 0 : 1,
      stdout: example.json ? `${JSON.stringify(report, null, 2)}\n` : human(report),
      stderr: '',
    };
  } catch (error) {
    return usageFailure('doctor find-recipe', error);
  }
}
