import { readFile, stat } from 'node:fs/promises';
import { parser } from '@lezer/json';
import type { z } from 'zod';
import { suiteSchema } from '@/domain/suite-cases';

/** Line and column (from 1) of offset `at` in `text`. */
function lineAndColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(at, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/**
 * Where a text that JSON.parse refused goes wrong, and how. V8 names the offset for most
 * mistakes ("… in JSON at position 45 (line 4 column 16)") but not for all ("Unexpected end of
 * JSON input", a stray character at the start); then the JSON grammar's parser finds the first
 * place it could not read, the way the app's editors mark it.
 */
function syntaxProblem(text: string, error: unknown): string {
  const said = error instanceof Error ? error.message : String(error);
  const offset = /at position (\d+)/.exec(said)?.[1];
  let at: number;
  if (offset !== undefined) {
    at = Number(offset);
  } else {
    at = text.length;
    parser.parse(text).iterate({
      enter: (node) => {
        if (!node.type.isError || node.from >= at) return;
        at = node.from;
      },
    });
  }
  const { line, column } = lineAndColumn(text, at);
  const what = said
    .replace(/,? ?"[^]*" is not valid JSON$/, '')
    .replace(/ in JSON at position \d+.*$/, '')
    .replace(/ of JSON input$/, ' of the file');
  return `line ${line}, column ${column}: ${what}`;
}

/** What a key path is in a suite file, by the case's id where there is one. */
function whereIn(json: unknown, path: readonly PropertyKey[]): string {
  if (path[0] !== 'cases' || typeof path[1] !== 'number') return path.join('.');
  const cases: unknown = Reflect.get(Object(json), 'cases');
  const entry: unknown = Array.isArray(cases) ? cases[path[1]] : undefined;
  const id: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'id') : '';
  const named = typeof id === 'string' && id !== '' ? ` ("${id}")` : '';
  return [`case ${path[1] + 1}${named}`, ...path.slice(2)].join('.');
}

/** One of zod's issues with a suite file, in the words of a person fixing the file. */
function issueProblem(json: unknown, issue: z.core.$ZodIssue): string {
  const where = whereIn(json, issue.path);
  if (issue.code === 'unrecognized_keys') {
    const of =
      issue.path.length === 0
        ? 'a suite file'
        : issue.path.at(-1) === 'expect'
          ? "a case's expect"
          : 'a case';
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    return `${where === '' ? '' : `${where}: `}${keys} ${issue.keys.length === 1 ? 'is not a key' : 'are not keys'} of ${of}: check the spelling (docs/suite.schema.json lists them)`;
  }
  return `${where === '' ? 'the suite' : where}: ${issue.message}`;
}

/**
 * A suite file's content, or why it cannot be run (one line: where, what is wrong); null when
 * `what` is no file (then it is a stored suite's name).
 */
export async function readSuiteFile(
  what: string,
): Promise<{ suite: unknown } | { problem: string } | null> {
  const looksLikeFile = /\.json$/i.test(what) || what.includes('/') || what.includes('\\');
  const exists = await stat(what).then(
    (found) => found.isFile(),
    () => false,
  );
  if (!exists) return looksLikeFile ? { problem: `${what} cannot be read: check the path` } : null;
  let text: string;
  try {
    // A byte order mark, as some Windows editors write, is no part of the JSON.
    text = (await readFile(what, 'utf8')).replace(/^\uFEFF/, '');
  } catch {
    return { problem: `${what} cannot be read: check the path` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `${what} is not JSON: ${syntaxProblem(text, error)}` };
  }
  const suite = suiteSchema.safeParse(json);
  if (!suite.success) {
    const issue = suite.error.issues[0];
    return { problem: `${what}: ${issue ? issueProblem(json, issue) : 'not a suite'}` };
  }
  return { suite: json };
}
