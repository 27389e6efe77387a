/**
 * `npm run suite -- run <suite.json> --portal <url> [--connection <name>] [--org <id>]
 * [--vendor <id>] [--token <token>] [--junit <file>] [--json]`: runs a QA suite through a running
 * portal and exits 0 only when every case passes (1 when one fails, 2 for a wrong command, file
 * or portal, or a token the portal refuses), so a CI job can run it after a VMS release. The
 * suite's format is docs/suite.schema.json. On a portal with sign-in on, a personal API token
 * (`--token`, or `VMS_PORTAL_TOKEN`, which keeps it out of the process list) authenticates it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { suiteSchema } from '../domain/suite';
import {
  AccessRefused,
  junitXml,
  portalTokenEnv,
  runSuite,
  RunError,
  type SuiteReport,
} from '../node/suite-run';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export const suiteUsage = `npm run suite -- run <suite.json> --portal <url> [--connection <name>] [--org <client org id>] [--vendor <vendor org id>] [--token <token>, or ${portalTokenEnv}] [--junit <file>] [--json]`;

const fail = (message: string): Result => ({
  code: 2,
  stdout: '',
  stderr: `suite: ${message}\nusage: ${suiteUsage}\n`,
});

function wholeNumber(value: string | undefined, fallback: number): number | null {
  if (value === undefined) return fallback;
  return /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

/** One line per case, then the totals: what a person reads in a CI log. */
function textReport(report: SuiteReport): string {
  const lines = report.cases.map(
    (entry) =>
      `${entry.passed ? 'pass' : 'FAIL'}  ${entry.name}${entry.passed ? '' : `\n      ${entry.failure}`}`,
  );
  lines.push(
    `${report.suite}: ${report.passed} passed, ${report.failed} failed, in ${(report.durationMs / 1000).toFixed(1)} s (run ${report.runId}${report.connection ? `, connection ${report.connection}` : ''})`,
  );
  return `${lines.join('\n')}\n`;
}

export async function main(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
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
        vendor: { type: 'string' },
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
  const [command, file] = positionals;
  if (command !== 'run' || file === undefined) return fail('say what to run: run <suite.json>');
  if (values.portal === undefined)
    return fail('--portal <url> is required, e.g. --portal http://127.0.0.1:8787');
  const clientOrgId = wholeNumber(values.org, 1001);
  const vendorOrgId = wholeNumber(values.vendor, 9001);
  if (clientOrgId === null || vendorOrgId === null)
    return fail('--org and --vendor are org ids such as 1001');

  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return fail(`${file} cannot be read: check the path`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail(`${file} is not JSON`);
  }
  const suite = suiteSchema.safeParse(json);
  if (!suite.success) {
    const issue = suite.error.issues[0];
    return fail(
      `${file}: ${issue?.path.join('.') || 'the suite'}: ${issue?.message ?? 'not a suite'}`,
    );
  }

  const token = (values.token ?? env[portalTokenEnv] ?? '').trim();
  if (values.token !== undefined && token === '') {
    return fail(`--token is empty: give the token, or set ${portalTokenEnv} instead`);
  }

  let report: SuiteReport;
  try {
    report = await runSuite(suite.data, {
      portal: values.portal,
      connection: values.connection,
      clientOrgId,
      vendorOrgId,
      ...(token === '' ? {} : { token }),
    });
  } catch (error) {
    // Not a wrong command: the one line says what the portal said, no usage after it.
    if (error instanceof AccessRefused) {
      return { code: 2, stdout: '', stderr: `suite: ${error.message}\n` };
    }
    if (error instanceof RunError) return fail(error.message);
    throw error;
  }
  if (values.junit !== undefined) await writeFile(values.junit, junitXml(report));
  return {
    code: report.failed === 0 ? 0 : 1,
    stdout: values.json ? `${JSON.stringify(report, null, 2)}\n` : textReport(report),
    stderr: '',
  };
}

// Run when executed directly, not when imported by the tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main(process.argv.slice(2));
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
