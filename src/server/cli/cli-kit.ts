/**
 * What the operator's commands (`npm run users`, `backup`, `restore`, `privacy`) do alike: read
 * their arguments and the portal's settings, open the portal database, and turn what went wrong
 * into a message on stderr and an exit code: 1 when refused or failed, 2 for a usage or
 * configuration problem.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { ConfigError, loadConfig, type PortalConfig } from '@/server/config';
import { portalMigrations } from '@/server/portal-schema';
import { openDatabase, type PortalDatabase } from '@/server/store/database';

/** What a command talks to: the environment it reads its settings from, and its two streams. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  now?: () => number;
}

/** A command refused with a message for the operator, and the exit code that says why. */
export class CliRefusal extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The arguments read with `options`; one that is unknown or malformed is a usage problem. */
export function readArguments<T extends ParseArgsOptionsConfig>(
  argv: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options, strict: true });
  } catch (error) {
    throw new CliRefusal(`${messageOf(error)}\n${usage}`, 2);
  }
}

/** The portal's settings, as `npm start` reads them; a wrong one is a configuration problem. */
export function readPortalConfig(env: NodeJS.ProcessEnv): PortalConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new CliRefusal(`Configuration error: ${error.message}`, 2);
    }
    throw error;
  }
}

/** Runs `work` on the portal database, brought to the portal's schema, and closes it after. */
export async function withPortalDatabase<T>(
  config: PortalConfig,
  work: (database: PortalDatabase) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config, portalMigrations);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/**
 * Runs a command and returns its exit code: a refusal's message on stderr (after the command's
 * name when `nameRefusals`) with its code, anything else after the command's name with 1.
 */
export async function runCommand(
  name: string,
  io: Pick<CliIo, 'stderr'>,
  work: () => Promise<number>,
  { nameRefusals = false }: { nameRefusals?: boolean } = {},
): Promise<number> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CliRefusal) {
      io.stderr(`${nameRefusals ? `${name}: ` : ''}${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`${name}: ${messageOf(error)}\n`);
    return 1;
  }
}
