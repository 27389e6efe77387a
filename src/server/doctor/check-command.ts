/**
 * `npm run doctor -- [check] [--connection NAME] [--json] [--send-test-requisition [--yes]
 * [--force]]`: the connection doctor from the command line. Reads the portal's settings as the
 * server does (the caller loads `.env` first); without VMS_BASE_URL it starts the embedded
 * sandbox itself, on a free port and a database of its own, with the configured profile, and
 * stops it at the end. Exit 0 when every probe passed, 1 when one failed, 3 when none failed but
 * some could not tell, 2 when the command or the settings are wrong (one line on stderr).
 *
 * The command line's dispatcher (src/cli/doctor.ts) reaches the server's code only through this
 * module.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { DoctorReport, ProbeVerdict } from '@/domain/connection-check';
import { startSandbox, type RunningSandbox } from '@/sandbox/index';
import { ConfigError, loadConfig, type PortalConfig } from '@/server/config';
import { runDoctor, SendTestRefused } from './run-doctor';
import { defaultConnectionName, targetFor, type DoctorTarget } from './target';

export const checkUsage =
  'usage: npm run doctor -- [check] [--connection NAME] [--json] [--send-test-requisition [--yes] [--force]]';

export interface CheckIo {
  env: Record<string, string | undefined>;
  /** Whether a person is at the terminal to confirm the test send. */
  isTTY?: boolean;
  /** Asks a yes/no question on the terminal. */
  confirm?(question: string): Promise<boolean>;
}

export interface CheckResult {
  code: number;
  stdout: string;
  stderr: string;
}

const exitCodes: Record<ProbeVerdict, number> = { passed: 0, failed: 1, undecided: 3 };

const marks: Record<ProbeVerdict, string> = {
  passed: '[passed]   ',
  failed: '[FAILED]   ',
  undecided: '[undecided]',
};

/**
 * The report for a person: one line per probe (mark, title, finding), its fix below it, then the
 * calls its verdict rests on.
 */
export function humanReport(report: DoctorReport): string {
  const lines = [`Connection ${report.connection} (${report.vms}), checked ${report.checkedAt}:`];
  for (const probe of report.probes) {
    lines.push(`  ${marks[probe.verdict]} ${probe.title}: ${probe.finding}`);
    if (probe.fix !== null) lines.push(`                Fix: ${probe.fix}`);
    for (const line of probe.evidence) lines.push(`                Seen: ${line}`);
  }
  const count = (verdict: ProbeVerdict) =>
    report.probes.filter((probe) => probe.verdict === verdict).length;
  lines.push(
    report.verdict === 'passed'
      ? `Every check passed (${report.probes.length}).`
      : `${count('failed')} failed, ${count('undecided')} undecided, ${count('passed')} passed.`,
  );
  return `${lines.join('\n')}\n`;
}

/** What every doctor command takes: the connection, the test send and its confirmations, help. */
export const connectionOptions = {
  connection: { type: 'string' },
  'send-test-requisition': { type: 'boolean' },
  yes: { type: 'boolean' },
  force: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** `--yes` or `--force` without the test send they confirm: what to say, or null. */
export function testSendFlagsProblem(
  values: { 'send-test-requisition'?: boolean; yes?: boolean; force?: boolean },
  usageLine: string,
): string | null {
  const sendTest = values['send-test-requisition'] === true;
  return (values.yes === true || values.force === true) && !sendTest
    ? `--yes and --force go with --send-test-requisition; ${usageLine}`
    : null;
}

function usage(message: string): CheckResult {
  return {
    code: 2,
    stdout: '',
    stderr: `doctor: ${message.replace(/\s*[\r\n]+\s*/g, ' ')}\n`,
  };
}

export async function main(argv: string[], io: CheckIo): Promise<CheckResult> {
  let values;
  try {
    const parsed = parseArgs({
      args: argv,
      options: { ...connectionOptions, json: { type: 'boolean' } },
      allowPositionals: true,
    });
    values = parsed.values;
    const extra = parsed.positionals.filter((word, index) => !(index === 0 && word === 'check'));
    if (extra.length > 0) return usage(`unexpected argument ${extra[0]}; ${checkUsage}`);
  } catch (error) {
    return usage(`${(error as Error).message}; ${checkUsage}`);
  }
  if (values.help === true) return { code: 0, stdout: `${checkUsage}\n`, stderr: '' };
  const name = values.connection ?? defaultConnectionName;
  const sendTest = values['send-test-requisition'] === true;
  const flagsProblem = testSendFlagsProblem(values, checkUsage);
  if (flagsProblem !== null) return usage(flagsProblem);

  const found = connectionNamed(io.env, name);
  if ('problem' in found) return usage(found.problem);
  const { config, connection } = found;

  if (sendTest && values.yes !== true) {
    const sure = await confirmTestSend(io, connection, 'one test requisition');
    if (!sure)
      return usage('the test requisition was not sent (not confirmed); nothing was checked');
  }

  try {
    const report = await withTarget(config, connection, (target) =>
      runDoctor(target, { sendTest, force: values.force === true }),
    );
    return {
      code: exitCodes[report.verdict],
      stdout: values.json === true ? `${JSON.stringify(report, null, 2)}\n` : humanReport(report),
      stderr: '',
    };
  } catch (error) {
    if (error instanceof SendTestRefused) return usage(error.message);
    throw error;
  }
}

type Connection = PortalConfig['connections'][number];

/**
 * Whether the person at the terminal confirms the test send (`what` is sent, marked CONNECTION
 * CHECK); without a terminal there is no one to ask, and --send-test-requisition stands.
 */
export async function confirmTestSend(
  io: CheckIo,
  connection: Connection,
  what: string,
): Promise<boolean> {
  if (io.isTTY !== true || !io.confirm) return true;
  const where =
    connection.upstream.kind === 'sandbox' ? 'the embedded sandbox' : connection.upstream.baseUrl;
  return io.confirm(
    `Send ${what} (marked CONNECTION CHECK) to ${where} for client org ${connection.clientOrgIds[0]}? It is a real POST and cannot be taken back. [y/N] `,
  );
}

/** The settings and the connection `name` names (`default`: the default one), or what is wrong. */
export function connectionNamed(
  env: Record<string, string | undefined>,
  name: string,
): { config: PortalConfig; connection: Connection } | { problem: string } {
  let config: PortalConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { problem: `settings error: ${error.message}` };
    throw error;
  }
  const wanted = name === defaultConnectionName ? config.defaultConnection : name;
  const connection = config.connections.find((entry) => entry.name === wanted);
  if (!connection) {
    return {
      problem: `there is no connection named "${name}"; the connections are ${config.connections.map((entry) => `"${entry.name}"`).join(', ')} ("${defaultConnectionName}" stands for "${config.defaultConnection}")`,
    };
  }
  return { config, connection };
}

/**
 * `run` on the connection as the doctor reaches it. A sandbox connection's sandbox is started
 * for the run, on a free port and a database of its own, with the connection's profile, and
 * stopped after it.
 */
export async function withTarget<T>(
  config: PortalConfig,
  connection: Connection,
  run: (target: DoctorTarget) => Promise<T>,
): Promise<T> {
  let sandbox: RunningSandbox | null = null;
  let sandboxDir: string | null = null;
  try {
    if (connection.upstream.kind === 'sandbox') {
      // A database of its own: a portal running beside it keeps its sandbox's file to itself.
      sandboxDir = mkdtempSync(join(tmpdir(), 'portal-doctor-'));
      sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        dbPath: join(sandboxDir, 'sandbox.db'),
        profile: connection.profile,
        dateFormat: connection.dateFormat,
        maxBatch: connection.maxBatch,
        processingDelayMs: connection.upstream.processingDelayMs,
        clockSkewMs: connection.upstream.clockSkewMs,
        blankMaximumBillRate: connection.upstream.blankMaximumBillRate,
      });
    }
    const target = targetFor(config, connection.name, sandbox?.url ?? null);
    if (target === null) throw new Error(`connection ${connection.name} could not be reached`);
    return await run(target);
  } finally {
    await sandbox?.close();
    if (sandboxDir !== null) rmSync(sandboxDir, { recursive: true, force: true });
  }
}
