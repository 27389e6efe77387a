/**
 * `npm run doctor -- draft-profile [--connection NAME] [--example-signature FILE] [--out FILE]
 * [--send-test-requisition [--yes] [--force]]`: a profile drafted from the VMS itself
 * (draft-profile/draft.ts), every key with its evidence in `$evidence`. Only GETs, unless
 * --send-test-requisition: then one test requisition and a test candidate to it, confirmed at a
 * terminal and refused on a production connection without --force, as `check` does. Reads the portal's settings as `check` does (the connection's base URL and
 * credentials); without --out the profile is printed as JSON. Exit 0 when drafted, 1 when the VMS
 * did not show enough to draft one (what was tried on stderr), 2 when the command or its files are
 * wrong (one line on stderr).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { SignatureExample } from '@/domain/profile-draft';
import {
  confirmTestSend,
  connectionNamed,
  connectionOptions,
  testSendFlagsProblem,
  withTarget,
  type CheckIo,
  type CheckResult,
} from './check-command';
import { draftProfile, testSendRefusal, type DraftedProfile } from './draft-profile/draft';
import { readSignatureExample } from './draft-profile/example';
import { SendTestRefused } from './run-doctor';
import { defaultConnectionName } from './target';

export const draftUsage =
  'usage: npm run doctor -- draft-profile [--connection NAME] [--example-signature FILE] [--out FILE] [--send-test-requisition [--yes] [--force]]';

function usage(message: string): CheckResult {
  return {
    code: 2,
    stdout: '',
    stderr: `doctor draft-profile: ${message.replace(/\s*[\r\n]+\s*/g, ' ')}\n`,
  };
}

function readExample(file: string): SignatureExample | { problem: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { problem: `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : String(code)}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `${file} is not JSON (${(error as Error).message})` };
  }
  const example = readSignatureExample(json);
  return 'problem' in example ? { problem: `${file}: ${example.problem}` } : example;
}

/** How many keys were proved, guessed and left undecided, for the summary line. */
function tally(profile: DraftedProfile): string {
  const lines = Object.values(profile.$evidence);
  const count = (word: string) => lines.filter((line) => line.startsWith(`${word}:`)).length;
  return `${count('proved')} proved, ${count('guess')} guessed, ${count('undecided')} undecided (see "$evidence")`;
}

export async function main(argv: string[], io: CheckIo): Promise<CheckResult> {
  let values;
  try {
    const parsed = parseArgs({
      args: argv,
      options: {
        ...connectionOptions,
        'example-signature': { type: 'string' },
        out: { type: 'string' },
      },
      allowPositionals: true,
    });
    values = parsed.values;
    if (parsed.positionals.length > 0) {
      return usage(`unexpected argument ${parsed.positionals[0]}; ${draftUsage}`);
    }
  } catch (error) {
    return usage(`${(error as Error).message}; ${draftUsage}`);
  }
  if (values.help === true) return { code: 0, stdout: `${draftUsage}\n`, stderr: '' };
  let example: SignatureExample | undefined;
  const exampleFile = values['example-signature'];
  if (exampleFile !== undefined) {
    const read = readExample(exampleFile);
    if ('problem' in read) return usage(read.problem);
    example = read;
  }
  const sendTest = values['send-test-requisition'] === true;
  const flagsProblem = testSendFlagsProblem(values, draftUsage);
  if (flagsProblem !== null) return usage(flagsProblem);
  const found = connectionNamed(io.env, values.connection ?? defaultConnectionName);
  if ('problem' in found) return usage(found.problem);
  // Refused before anyone is asked: a production connection is not sent to without --force.
  const refused = testSendRefusal(found.connection, { sendTest, force: values.force === true });
  if (refused !== null) return usage(refused.message);
  if (sendTest && values.yes !== true) {
    const what = 'one test requisition, and a test candidate to it';
    if (!(await confirmTestSend(io, found.connection, what)))
      return usage('the test requisition was not sent (not confirmed); nothing was drafted');
  }

  let outcome;
  try {
    outcome = await withTarget(found.config, found.connection, (target) =>
      draftProfile(target, {
        ...(example !== undefined && { example }),
        ...(sendTest && { sendTest, force: values.force === true }),
      }),
    );
  } catch (error) {
    if (error instanceof SendTestRefused) return usage(error.message);
    throw error;
  }
  if (!outcome.drafted && outcome.badExample === true) {
    return usage(`${exampleFile ?? 'the signature example'}: ${outcome.problem}`);
  }
  if (!outcome.drafted) {
    const tried = outcome.tried.map((line) => `  tried: ${line}\n`).join('');
    return {
      code: 1,
      stdout: '',
      stderr: `doctor draft-profile: no profile drafted: ${outcome.problem}.\n${tried}`,
    };
  }
  const json = `${JSON.stringify(outcome.profile, null, 2)}\n`;
  if (values.out === undefined) return { code: 0, stdout: json, stderr: '' };
  try {
    writeFileSync(values.out, json);
  } catch (error) {
    return usage(`cannot write ${values.out}: ${(error as Error).message}`);
  }
  return {
    code: 0,
    stdout: `Wrote the drafted profile to ${values.out}: ${tally(outcome.profile)}.\n`,
    stderr: '',
  };
}
