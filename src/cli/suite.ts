/**
 * `npm run suite -- run <suite.json | stored suite name> --portal <url> [--connection <name>]
 * [--org <id>] [--junit <file>] [--json]`: runs a QA suite on a portal and exits 0 only when
 * every case passes (1 when one fails, 2 for a wrong command, file, suite name or portal, or a run
 * the portal could not finish), so a CI job can run it after a VMS release. The portal runs it
 * (decision 038): its proxy signs and journals every batch, keeps the run with the others and
 * compares it with the one before; this command sends the suite (a file's content, or a stored
 * suite's name), prints progress as it goes and the report when it ends. The suite's format is
 * docs/suite.schema.json. On a portal with sign-in on, a personal API token (`--token`, or
 * `VMS_PORTAL_TOKEN`, which keeps it out of the process list) authenticates it (decision 037).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { suiteSchema } from '@/domain/suite';
import { caseVerdictLabels, type StartRun, type SuiteRun } from '@/domain/suite-run';
import {
  AccessRefused,
  junitXml,
  portalTokenEnv,
  RunError,
  startRun,
  waitForRun,
} from '@/node/suite-run';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export const suiteUsage = `npm run suite -- run <suite.json | stored suite name> --portal <url> [--connection <name>] [--org <client org id>] [--token <token>, or ${portalTokenEnv}] [--junit <file>] [--json]`;

const fail = (message: string): Result => ({
  code: 2,
  stdout: '',
  stderr: `suite: ${message}\nusage: ${suiteUsage}\n`,
});

/** One line per case, then the totals and the comparison: what a person reads in a CI log. */
function textReport(run: SuiteRun): string {
  const lines = run.cases.map((entry) => {
    // What changed since the run before; a case passing as before, or new and passing, says nothing.
    const verdict =
      entry.verdict && entry.verdict !== 'passing' && !(entry.verdict === 'new' && entry.passed)
        ? ` (${caseVerdictLabels[entry.verdict].toLowerCase()})`
        : '';
    return `${entry.passed ? 'pass' : 'FAIL'}  ${entry.name}${verdict}${entry.passed ? '' : `\n      ${entry.failure}`}`;
  });
  if (run.status === 'interrupted') {
    lines.push(
      `INTERRUPTED after ${run.casesDone} of ${run.casesTotal} cases: ${run.interruption ?? 'the portal stopped'}`,
    );
  }
  const seconds = ((run.durationMs ?? 0) / 1000).toFixed(1);
  lines.push(
    `${run.suiteName}: ${run.passed} passed, ${run.failed} failed, in ${seconds} s (run ${run.id}, connection ${run.connection}, ${run.batches} ${run.batches === 1 ? 'batch' : 'batches'})`,
  );
  if (run.verdicts && run.previousRunId !== null) {
    lines.push(
      `against run ${run.previousRunId}: ${run.verdicts['newly-failing']} newly failing, ${run.verdicts.fixed} fixed, ${run.verdicts['still-failing']} still failing, ${run.verdicts.new} new`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A suite file's content, or why it cannot be run; null when `what` is no file (a suite name). */
async function readSuiteFile(
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
    text = await readFile(what, 'utf8');
  } catch {
    return { problem: `${what} cannot be read: check the path` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${what} is not JSON` };
  }
  const suite = suiteSchema.safeParse(json);
  if (!suite.success) {
    const issue = suite.error.issues[0];
    return {
      problem: `${what}: ${issue?.path.join('.') || 'the suite'}: ${issue?.message ?? 'not a suite'}`,
    };
  }
  return { suite: json };
}

export interface MainOptions {
  /** Where progress lines go while the run goes (stderr when run from a shell). */
  progress?: (line: string) => void;
  /** Where `VMS_PORTAL_TOKEN` is read from. */
  env?: Record<string, string | undefined>;
}

export async function main(
  argv: string[],
  { progress = () => {}, env = process.env }: MainOptions = {},
): Promise<Result> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        portal: { type: 'string' },
        connection: { type: 'string' },
        org: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'boolean' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { code: 0, stdout: `usage: ${suiteUsage}\n`, stderr: '' };
  const [command, what] = positionals;
  if (command !== 'run' || what === undefined)
    return fail('say what to run: run <suite.json> or run <stored suite name>');
  if (values.portal === undefined)
    return fail('--portal <url> is required, e.g. --portal http://127.0.0.1:8787');
  if (values.org !== undefined && !/^[1-9]\d{0,15}$/.test(values.org))
    return fail('--org is a client org id such as 1001');

  const token = (values.token ?? env[portalTokenEnv] ?? '').trim();
  if (values.token !== undefined && token === '') {
    return fail(`--token is empty: give the token, or set ${portalTokenEnv} instead`);
  }
  const target = { portal: values.portal, ...(token === '' ? {} : { token }) };

  const file = await readSuiteFile(what);
  if (file !== null && 'problem' in file) return fail(file.problem);
  const body: StartRun = {
    ...(file === null ? { suiteName: what } : { suite: file.suite }),
    ...(values.connection === undefined ? {} : { connection: values.connection }),
    ...(values.org === undefined ? {} : { clientOrgId: Number(values.org) }),
  };

  let run: SuiteRun;
  try {
    const started = await startRun(target, body);
    progress(
      `run ${started.id} of ${started.suiteName} on ${started.connection}: ${started.casesTotal} cases\n`,
    );
    run = await waitForRun(target, started.id, (now) => {
      if (now.status === 'running') {
        progress(
          `run ${now.id}: ${now.casesDone}/${now.casesTotal} cases done, ${now.failed} failed\n`,
        );
      }
    });
  } catch (error) {
    // Not a wrong command: the one line says what the portal said, no usage after it.
    if (error instanceof AccessRefused) {
      return { code: 2, stdout: '', stderr: `suite: ${error.message}\n` };
    }
    if (error instanceof RunError) return fail(error.message);
    throw error;
  }
  if (values.junit !== undefined) await writeFile(values.junit, junitXml(run));
  const stdout = values.json ? `${JSON.stringify(run, null, 2)}\n` : textReport(run);
  if (run.status === 'interrupted') {
    return {
      code: 2,
      stdout,
      stderr: `suite: run ${run.id} was interrupted: ${run.interruption ?? 'the portal stopped'}; run it again\n`,
    };
  }
  return { code: run.failed === 0 ? 0 : 1, stdout, stderr: '' };
}

// Run when executed directly, not when imported by the tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main(process.argv.slice(2), {
    progress: (line) => process.stderr.write(line),
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
