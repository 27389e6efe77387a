import { existsSync } from 'node:fs';
import { runUsersCli } from './users';

/**
 * `npm run users -- …` (see users.ts). Reads `.env` like `npm start`; asks for passwords on the
 * terminal with echo off.
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(Buffer.from(chunk));
    // Only the first line is read (users.ts): a pipe that never ends (`yes pw |`) must not hang.
    if (Buffer.from(chunk).includes(0x0a)) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads one line from the terminal in raw mode, echoing nothing. Ctrl-C stops the command. */
function askHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const stdin = process.stdin;
    process.stdout.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let typed = '';
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\u0003') {
          stdin.setRawMode(false);
          process.stdout.write('\n');
          process.exit(130);
        }
        if (character === '\r' || character === '\n' || character === '\u0004') {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off('data', onData);
          process.stdout.write('\n');
          resolve(typed);
          return;
        }
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else typed += character;
      }
    };
    stdin.on('data', onData);
  });
}

if (existsSync('.env')) process.loadEnvFile('.env');
process.exitCode = await runUsersCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readStdin,
  askHidden: process.stdin.isTTY ? askHidden : null,
});
