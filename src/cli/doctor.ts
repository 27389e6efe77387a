/**
 * `npm run doctor -- <subcommand> …`: checks of the portal's fit with a VMS, one subcommand each;
 * without one (or with options only) it checks a connection. Only the dispatch lives here; each
 * subcommand is its own module with its own `main`.
 */
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import type { CheckIo } from '@/server/doctor/check-command';
import { checkUsage, main as checkConnection } from '@/server/doctor/check-command';
import { main as draftProfile } from '@/server/doctor/draft-command';
import type { Io as RecipeIo, Result } from './find-recipe';
import { main as findRecipe } from './find-recipe';

export type Io = RecipeIo & CheckIo;

const subcommands: Record<
  string,
  { summary: string; run(argv: string[], io: Io): Promise<Result> }
> = {
  check: {
    summary:
      'safe probes of a connection (reachable, clock, key and signature, orgs, list, results paths, dates); the default',
    run: (argv, io) => checkConnection(['check', ...argv], io),
  },
  'find-recipe': {
    summary: 'which signature recipe reproduces a signed example (key, timestamp, signature)',
    run: findRecipe,
  },
  'draft-profile': {
    summary:
      "a profile drafted from the VMS's own answers (never a POST), each key with how it was proved",
    run: draftProfile,
  },
};

const help = [
  'usage: npm run doctor -- [<subcommand>] [options]   (--help after a subcommand for its options)',
  '',
  'subcommands:',
  ...Object.entries(subcommands).map(([name, { summary }]) => `  ${name}  ${summary}`),
  '',
  'Without a subcommand, the connection check runs:',
  `  ${checkUsage}`,
  '  exit 0: every check passed; 1: one failed; 3: none failed, some undecided; 2: wrong command or settings',
  '',
].join('\n');

export async function main(argv: string[], io: Io): Promise<Result> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help')
    return { code: 0, stdout: help, stderr: '' };
  // No subcommand, or options only: the connection check, the doctor's everyday use.
  if (name === undefined || name.startsWith('--')) return checkConnection(argv, io);
  const subcommand = subcommands[name];
  if (subcommand === undefined) {
    const known = Object.keys(subcommands).join(', ');
    return {
      code: 2,
      stdout: '',
      stderr: `doctor: unknown subcommand ${name}; the subcommands are: ${known} (npm run doctor -- --help)\n`,
    };
  }
  return subcommand.run(rest, io);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function confirm(question: string): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await terminal.question(question)).trim());
  } finally {
    terminal.close();
  }
}

// Run when executed directly (tsx src/cli/doctor.ts …), not when imported by the tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // The portal's settings, read as the server reads them: .env, with the environment winning.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const result = await main(process.argv.slice(2), {
    env: process.env,
    readStdin,
    isTTY: process.stdin.isTTY === true && process.stderr.isTTY === true,
    confirm,
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
