/**
 * The offline validator: `npm run validate -- --kind requisition|candidate FILE
 * [--date-format MM/DD/YYYY] [--mapping TEMPLATE.json] [--org 1001] [--sheet NAME]` (built to
 * build/cli/validate.mjs, so `node build/cli/validate.mjs …` starts in a blink). FILE is a JSON
 * array of wire objects, or a sheet with a header row (CSV or TSV: .csv, .tsv, .txt; or an XLSX
 * workbook's sheet), read as the import page reads it (domain/spreadsheet.ts). Prints one JSON
 * report on stdout; exit 0 when every item is valid, 1 when any is invalid, 2 when the file
 * cannot be checked (one line on stderr, nothing on stdout).
 * A JSON file is read whole but parsed and checked item by item (json-array.ts), so its items
 * never all live at once; above `streamAboveBytes` (64 MiB) it is read as a stream (stream-json),
 * so a file of 100,000 requisitions never has to fit in memory as one string.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import type {
  BatchItemReport,
  BatchReport,
  DateFormat,
  DateOrder,
  PayloadKind,
  SheetReport,
} from '@/domain';
import { batchShapeProblem, itemReport, payloadKinds, validateBatch } from '@/domain';
import { datePatternProblem } from '@/domain/date-patterns';
import { eachArrayObject } from './json-array';
import { isSheetFile, isXlsxFile } from './sheet-files';
import { cannotRead, usageFailure, UsageError } from './usage-error';

/** Above this size a file is streamed instead of read whole. */
export const streamAboveBytes = 64 * 1024 * 1024;
/** Items validated together while streaming. */
const streamChunk = 1000;

const usage = `usage: npm run validate -- --kind requisition|candidate FILE.json|.csv|.tsv|.xlsx [--date-format YYYY-MM-DD|MM/DD/YYYY|DD/MM/YYYY|PATTERN] [--date-order month-first|day-first] [--mapping TEMPLATE.json] [--org CLIENT_ORG_ID] [--sheet NAME]`;

function isOneOf<T extends string>(list: readonly T[], value: string | undefined): value is T {
  return list.some((item) => item === value);
}

interface Command {
  kind: PayloadKind;
  dateFormat: DateFormat;
  file: string;
  /** A saved mapping for a sheet's headers (header → wire key, '' to ignore). */
  mapping: string | undefined;
  /** The client org of a sheet's rows that have no Org ID column. */
  org: string | undefined;
  /** The sheet of an XLSX workbook to read (the first when not given). */
  sheet: string | undefined;
  /** How a sheet writes its dates, when the user says so (otherwise as its columns prove). */
  dateOrder: DateOrder | undefined;
}

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function parseCommand(argv: string[]): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      kind: { type: 'string' },
      'date-format': { type: 'string' },
      mapping: { type: 'string' },
      org: { type: 'string' },
      sheet: { type: 'string' },
      'date-order': { type: 'string' },
    },
    allowPositionals: true,
  });
  const kind = values.kind;
  if (!isOneOf<PayloadKind>(payloadKinds, kind))
    throw new UsageError(`--kind must be requisition or candidate; ${usage}`);
  const dateFormat = values['date-format'] ?? 'YYYY-MM-DD';
  const patternProblem = datePatternProblem(dateFormat, 'date');
  if (patternProblem !== null)
    throw new UsageError(
      `--date-format must be a date pattern such as DD/MM/YYYY: ${patternProblem}; ${usage}`,
    );
  const dateOrder = values['date-order'];
  if (dateOrder !== undefined && !isOneOf<DateOrder>(['month-first', 'day-first'], dateOrder))
    throw new UsageError(`--date-order must be month-first or day-first; ${usage}`);
  if (positionals.length !== 1) throw new UsageError(`give exactly one FILE; ${usage}`);
  if (values.org !== undefined && !/^[1-9]\d{0,15}$/.test(values.org))
    throw new UsageError(`--org must be a client org id such as 1001; ${usage}`);
  return {
    kind,
    dateFormat,
    file: positionals[0] ?? '',
    mapping: values.mapping,
    org: values.org,
    sheet: values.sheet,
    dateOrder,
  };
}

function reported(report: BatchReport | SheetReport): Result {
  return { code: report.valid ? 0 : 1, stdout: `${JSON.stringify(report, null, 2)}\n`, stderr: '' };
}

/** A file's text, without the byte-order mark editors on Windows often put before UTF-8. */
function readText(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw cannotRead(file, error);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The report of a JSON array of objects, each item checked as soon as it is parsed and then
 * dropped (json-array.ts); null when the text is anything else, for `run` to parse it whole.
 */
function reportEachItem(
  kind: PayloadKind,
  text: string,
  dateFormat: DateFormat,
): BatchReport | null {
  const items: BatchItemReport[] = [];
  const options = { dateFormat };
  const read = eachArrayObject(text, (item) => {
    items.push(itemReport(kind, item, items.length, options));
  });
  return read ? { valid: items.every((item) => item.valid), items } : null;
}

/** Checks a file read whole (the usual case). */
export function run(argv: string[]): Result {
  try {
    const { kind, dateFormat, file } = parseCommand(argv);
    const text = readText(file);
    const report = reportEachItem(kind, text, dateFormat);
    if (report) return reported(report);

    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    const problem = batchShapeProblem(data, { noun: kind });
    if (problem !== null || !Array.isArray(data))
      throw new UsageError(`${file}: ${problem?.message ?? 'not an array'}`);

    return reported(validateBatch(kind, data, { dateFormat }));
  } catch (error) {
    return usageFailure('validate', error);
  }
}

/**
 * Checks a file read as a stream: items are parsed one by one and validated a thousand at a time,
 * with the same rules and the same report as `run`.
 */
export function runStreamed(argv: string[]): Promise<Result> {
  return usageAsFailure(async () => {
    const { kind, dateFormat, file } = parseCommand(argv);
    const items: BatchReport['items'] = [];
    let chunk: unknown[] = [];
    const flush = () => {
      const offset = items.length;
      for (const item of validateBatch(kind, chunk, { dateFormat }).items)
        items.push({ ...item, index: item.index + offset });
      chunk = [];
    };
    const input = createReadStream(file);
    const opened = new Promise<void>((resolve, reject) => {
      input.once('open', () => resolve());
      input.once('error', (error) => reject(cannotRead(file, error)));
    });
    await opened;
    const stream = input.pipe(streamArray.withParserAsStream());
    try {
      for await (const { value } of stream as AsyncIterable<{ value: unknown }>) {
        const problem = batchShapeProblem([value], { noun: kind });
        if (problem !== null)
          throw new UsageError(`${file}: item ${items.length + chunk.length}: ${problem.message}`);
        chunk.push(value);
        if (chunk.length === streamChunk) flush();
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(
        `${file} is not a JSON array of ${kind} objects: ${(error as Error).message}`,
      );
    }
    flush();
    if (items.length === 0) {
      throw new UsageError(`${file}: ${batchShapeProblem([], { noun: kind })?.message ?? 'empty'}`);
    }
    return reported({ valid: items.every((item) => item.valid), items });
  });
}

/**
 * Checks a sheet: CSV or TSV, or an XLSX workbook's sheet. The readers (Papa Parse,
 * read-excel-file) are loaded only for sheets, so a JSON file starts without them.
 */
export function runSheet(argv: string[]): Promise<Result> {
  return usageAsFailure(async () => {
    const { kind, dateFormat, file, mapping, org, sheet, dateOrder } = parseCommand(argv);
    const { checkSheetFile, checkXlsxFile } = await import('./sheet');
    return reported(
      isXlsxFile(file)
        ? await checkXlsxFile(kind, file, { dateFormat, mapping, org, sheet, dateOrder })
        : checkSheetFile(kind, file, { dateFormat, mapping, org, dateOrder }),
    );
  });
}

/** A check that reads files on its way: a usage or file problem as the one line on stderr. */
async function usageAsFailure(check: () => Promise<Result>): Promise<Result> {
  try {
    return await check();
  } catch (error) {
    return usageFailure('validate', error);
  }
}

/** The command: a workbook read as one, a large JSON file streamed, any other read whole. */
export async function main(argv: string[], threshold = streamAboveBytes): Promise<Result> {
  let size = 0;
  try {
    const { file } = parseCommand(argv);
    if (isXlsxFile(file) || isSheetFile(file)) return await runSheet(argv);
    size = statSync(file).size;
  } catch {
    return run(argv); // run says what is wrong with the arguments or the file
  }
  return size > threshold ? runStreamed(argv) : run(argv);
}

// Run when executed directly (node build/cli/validate.mjs …, tsx src/cli/validate.ts …), not
// when imported by the tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main(process.argv.slice(2));
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
