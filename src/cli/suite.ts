/**
 * `npm run suite -- run <suite.json | stored suite name> --portal <url> [--connection <name>]
 * [--org <id>] [--junit <file>] [--json[=<file>]]`: runs a QA suite on a portal and exits 0 only when
 * every case passes (1 when one fails, 2 for a wrong command, file, suite name or portal, or a run
 * the portal could not finish), so a CI job can run it after a VMS release. The portal runs it
 * (decision 038): its proxy signs and journals every batch, keeps the run with the others and
 * compares it with the one before; this command sends the suite (a file's content, or a stored
 * suite's name), prints progress as it goes and the report when it ends. The suite's format is
 * docs/suite.schema.json. On a portal with sign-in on, a personal API token (`VMS_PORTAL_TOKEN`, which keeps it
 * out of the process list and the CI log, or `--token`, which warns) authenticates it (decision 037).
 */
import { writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { caseVerdictLabels, suiteRunPath, type StartRun, type SuiteRun } from '@/domain/suite-run';
import { portalTokenEnv, RunError, startRun, waitForRun } from '@/node/portal-runs';
import { junitXml } from '@/node/suite-run';
import { readSuiteFile } from './suite-file';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export const suiteUsage = `npm run suite -- run <suite.json | stored suite name> --portal <url> [--connection <name>] [--org <client org id>] [${portalTokenEnv}=<token> in the environment, or --token <token>] [--junit <file>] [--json[=<file>]]`;

/** A wrong command: what is wrong, then how the command is written. */
const wrongCommand = (message: string): Result => ({
  code: 2,
  stdout: '',
  stderr: `suite: ${message}\nusage: ${suiteUsage}\n`,
});

/**
 * A command written right that cannot run (a file that is no suite, a portal that refuses): one
 * line that says what and where, and nothing after it for a CI log to bury it under.
 */
const cannotRun = (message: string): Result => ({
  code: 2,
  stdout: '',
  stderr: `suite: ${message}\n`,
});

/**
 * Said once when the token is on the command line: `npm run` prints the whole command line on
 * standard output before running it, so the token lands in the CI log (and it is in the process
 * list while the run goes); the environment keeps it out of both.
 */
const tokenFlagWarning = `suite: warning: --token shows the token in the CI log (npm run prints the command line) and in the process list; set ${portalTokenEnv} from the CI system's secrets instead\n`;

/**
 * `--json` alone prints the run's JSON report on stdout in place of the text report;
 * `--json=<file>` writes it to the file and keeps the text report, so the file stays clean of
 * whatever else reaches stdout (`npm run` prints its own lines there first). The file is named
 * only with `=`: `run --json nightly.json` must run the suite file, not write over it.
 * (`parseArgs` has no option with an optional value: bare `--json` is read as `--json=`.)
 */
function withJsonValue(argv: string[]): string[] {
  return argv.map((arg) => (arg === '--json' ? '--json=' : arg));
}

/** Where a person opens the run in the portal: from a CI log, a file's run has no other way in. */
const runPage = (portal: string, run: Pick<SuiteRun, 'id' | 'suiteId'>) =>
  new URL(suiteRunPath(run.id, run.suiteId), portal).href;

/** One line per case, then the totals and the comparison: what a person reads in a CI log. */
function textReport(run: SuiteRun, portal: string): string {
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
  lines.push(`the run in the portal: ${runPage(portal, run)}`);
  return `${lines.join('\n')}\n`;
}

export interface MainOptions {
  /** Where progress lines and warnings go while the run goes (stderr when run from a shell). */
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
      args: withJsonValue(argv),
      allowPositionals: true,
      options: {
        portal: { type: 'string' },
        connection: { type: 'string' },
        org: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return wrongCommand(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { code: 0, stdout: `usage: ${suiteUsage}\n`, stderr: '' };
  const [command, what] = positionals;
  if (command !== 'run' || what === undefined)
    return wrongCommand('say what to run: run <suite.json> or run <stored suite name>');
  if (values.portal === undefined)
    return wrongCommand('--portal <url> is required, e.g. --portal http://127.0.0.1:8787');
  if (values.org !== undefined && !/^[1-9]\d{0,15}$/.test(values.org))
    return wrongCommand('--org is a client org id such as 1001');

  const token = (values.token ?? env[portalTokenEnv] ?? '').trim();
  if (values.token !== undefined && token === '') {
    return wrongCommand(`--token is empty: give the token, or set ${portalTokenEnv} instead`);
  }
  const target = { portal: values.portal, ...(token === '' ? {} : { token }) };
  if (values.token !== undefined) progress(tokenFlagWarning);
  const jsonFile = values.json === undefined || values.json === '' ? undefined : values.json;

  const file = await readSuiteFile(what);
  if (file !== null && 'problem' in file) return cannotRun(file.problem);
  const body: StartRun = {
    ...(file === null ? { suiteName: what } : { suite: file.suite }),
    ...(values.connection === undefined ? {} : { connection: values.connection }),
    ...(values.org === undefined ? {} : { clientOrgId: Number(values.org) }),
  };

  let run: SuiteRun;
  try {
    const started = await startRun(target, body);
    progress(
      `run ${started.id} of ${started.suiteName} on ${started.connection}: ${started.casesTotal} cases, ${runPage(values.portal, started)}\n`,
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
    if (error instanceof RunError) return cannotRun(error.message);
    throw error;
  }
  if (values.junit !== undefined) await writeFile(values.junit, junitXml(run));
  const json = `${JSON.stringify(run, null, 2)}\n`;
  if (jsonFile !== undefined) await writeFile(jsonFile, json);
  const stdout = values.json === '' ? json : textReport(run, values.portal);
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
