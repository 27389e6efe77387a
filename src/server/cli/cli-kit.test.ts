import { describe, expect, it } from 'vitest';
import { CliRefusal, readArguments, readPortalConfig, runCommand } from './cli-kit';

/*
 * The exit codes and messages every operator command gives (users, backup, restore, privacy):
 * 2 for a usage or configuration problem, 1 when refused or failed, each said on stderr.
 */

function capture() {
  const lines: string[] = [];
  return { lines, io: { stderr: (text: string) => lines.push(text) } };
}

describe('runCommand', () => {
  it('returns what the command returns and says nothing', async () => {
    const { lines, io } = capture();
    expect(await runCommand('users', io, () => Promise.resolve(0))).toBe(0);
    expect(lines).toEqual([]);
  });

  it("gives a refusal's own code and message, after the command's name when asked", async () => {
    const plain = capture();
    const refuse = () => Promise.reject(new CliRefusal('Give a file.', 2));
    expect(await runCommand('backup', plain.io, refuse)).toBe(2);
    expect(plain.lines).toEqual(['Give a file.\n']);
    const named = capture();
    expect(await runCommand('backup', named.io, refuse, { nameRefusals: true })).toBe(2);
    expect(named.lines).toEqual(['backup: Give a file.\n']);
  });

  it("says any other failure after the command's name, with exit code 1", async () => {
    const { lines, io } = capture();
    const fail = () => Promise.reject(new Error('disk full'));
    expect(await runCommand('privacy', io, fail)).toBe(1);
    expect(lines).toEqual(['privacy: disk full\n']);
  });
});

describe('readArguments', () => {
  it('reads the options and the rest', () => {
    const read = readArguments(
      ['--out', 'a.json', 'x@example.com'],
      { out: { type: 'string' } },
      'usage: x',
    );
    expect(read.values.out).toBe('a.json');
    expect(read.positionals).toEqual(['x@example.com']);
  });

  it('refuses an unknown option as a usage problem, with the usage', () => {
    let caught: unknown;
    try {
      readArguments(['--colour', 'red'], {}, 'usage: npm run x -- FILE');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliRefusal);
    expect((caught as CliRefusal).exitCode).toBe(2);
    expect((caught as CliRefusal).message).toMatch(/--colour[\s\S]*\nusage: npm run x -- FILE$/);
  });
});

describe('readPortalConfig', () => {
  it('refuses a wrong setting as a configuration problem', () => {
    let caught: unknown;
    try {
      readPortalConfig({ PORT: 'eighty' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliRefusal);
    expect((caught as CliRefusal).exitCode).toBe(2);
    expect((caught as CliRefusal).message).toMatch(/^Configuration error: .*PORT/);
  });
});
