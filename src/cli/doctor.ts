/**
 * `npm run doctor -- <subcommand> …`: checks of the portal's fit with a VMS, one subcommand each.
 * Only the dispatch lives here; each subcommand is its own module with its own `main`.
 */
import { pathToFileURL } from 'node:url';
import type { Io, Result } from './find-recipe';
import { main as findRecipe } from './find-recipe';

const subcommands: Record<
  string,
  { summary: string; run(argv: string[], io: Io): Promise<Result> }
> = {
  'find-recipe': {
    summary: 'which signature recipe reproduces a signed example (key, timestamp, signature)',
    run: findRecipe,
  },
};

const help = [
  'usage: npm run doctor -- <subcommand> [options]   (--help after a subcommand for its options)',
  '',
  'subcommands:',
  ...Object.entries(subcommands).map(([name, { summary }]) => `  ${name}  ${summary}`),
  '',
].join('\n');

export async function main(argv: string[], io: Io): Promise<Result> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help')
    return { code: 0, stdout: help, stderr: '' };
  const subcommand = name === undefined ? undefined : subcommands[name];
  if (subcommand === undefined) {
    const known = Object.keys(subcommands).join(', ');
    const what = name === undefined ? 'no subcommand given' : `unknown subcommand ${name}`;
    return {
      code: 2,
      stdout: '',
      stderr: `doctor: ${what}; the subcommands are: ${known} (npm run doctor -- --help)\n`,
    };
  }
  return subcommand.run(rest, io);
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

// Run when executed directly (tsx src/cli/doctor.ts …), not when imported by the tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await main(process.argv.slice(2), { env: process.env, readStdin });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
