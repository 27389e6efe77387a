/**
 * The offline validator: `npm run validate -- --kind requisition|candidate FILE.json
 * [--date-format MM/DD/YYYY]`. Prints one JSON report on stdout; exit 0 when every item is valid,
 * 1 when any is invalid, 2 when the file cannot be checked (one line on stderr, nothing on stdout).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { DateFormat, PayloadKind } from '../domain';
import { batchShapeProblem, dateFormats, payloadKinds, validateBatch } from '../domain';

const usage =
  'usage: npm run validate -- --kind requisition|candidate FILE.json [--date-format YYYY-MM-DD|MM/DD/YYYY]';

class UsageError extends Error {}

function isOneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return list.some((item) => item === value);
}

export function run(argv: string[]): { code: number; stdout: string; stderr: string } {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { kind: { type: 'string' }, 'date-format': { type: 'string' } },
      allowPositionals: true,
    });
    const kind = values.kind;
    if (!isOneOf<PayloadKind>(payloadKinds, kind))
      throw new UsageError(`--kind must be requisition or candidate; ${usage}`);
    const dateFormat = values['date-format'] ?? 'YYYY-MM-DD';
    if (!isOneOf<DateFormat>(dateFormats, dateFormat))
      throw new UsageError(`--date-format must be YYYY-MM-DD or MM/DD/YYYY; ${usage}`);
    if (positionals.length !== 1) throw new UsageError(`give exactly one FILE.json; ${usage}`);
    const file = positionals[0] ?? '';

    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'no such file'
          : (error as Error).message;
      throw new UsageError(`cannot read ${file}: ${reason}`);
    }
    let data: unknown;
    try {
      // Editors on Windows often save UTF-8 with a byte-order mark; JSON.parse refuses it.
      data = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    const problem = batchShapeProblem(data, { noun: kind });
    if (problem !== null || !Array.isArray(data))
      throw new UsageError(`${file}: ${problem?.message ?? 'not an array'}`);

    const report = validateBatch(kind, data, { dateFormat });
    return {
      code: report.valid ? 0 : 1,
      stdout: `${JSON.stringify(report, null, 2)}\n`,
      stderr: '',
    };
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      // One line, as promised: JSON.parse quotes the source around the error, newlines and all.
      const message = (error as Error).message.replace(/\s*[\r\n]+\s*/g, ' ');
      return { code: 2, stdout: '', stderr: `validate: ${message}\n` };
    }
    throw error;
  }
}

// Run when executed directly (tsx src/cli/validate.ts …), not when imported by the tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = run(process.argv.slice(2));
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
