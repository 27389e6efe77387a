import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main as doctor } from './doctor';
import type { Io } from './find-recipe';
import { main } from './find-recipe';

// The real service's documentation publishes this example.
const published = {
  key: '5bcef48a3f03d311ff27d156630baf849e3b438b8a48fec99239d5c9',
  secret: 'foobar',
  timestamp: '1546259837',
  signature: 'fce2e80253cd438b666341176f34bde499116b63719e2482dae6965518ffd316',
};
const args = (example: { key: string; timestamp: string; signature: string }) => [
  '--key',
  example.key,
  '--timestamp',
  example.timestamp,
  '--signature',
  example.signature,
];
const io = (env: Record<string, string> = {}, stdin = ''): Io => ({
  env,
  readStdin: async () => stdin,
});

const dir = mkdtempSync(join(tmpdir(), 'find-recipe-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reportSchema = z.strictObject({
  matched: z.boolean(),
  space: z.number().int().positive(),
  matches: z.array(
    z.strictObject({
      description: z.string().min(1),
      signature: z.record(z.string(), z.unknown()),
    }),
  ),
  notes: z.array(z.string()),
});

function oneLine(stderr: string): string {
  const lines = stderr.split('\n');
  expect(lines, JSON.stringify(stderr)).toHaveLength(2);
  expect(lines[1]).toBe('');
  return lines[0] ?? '';
}

describe('find-recipe', () => {
  it('finds the published example: exit 0, the sentence and the JSON for the profile', async () => {
    const result = await main(
      [...args(published), '--secret-env', 'VMS_SECRET'],
      io({ VMS_SECRET: 'foobar' }),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(
      'lowercase hex SHA-256 of key + secret + Unix seconds, timestamp not sent',
    );
    expect(result.stdout).toContain('"order": [');
  });

  it('finds a recipe whose timestamp is a UTC time written as YYYYMMDDHHmmss', async () => {
    const timestamp = '20261127101530';
    const signature = createHash('sha256')
      .update(`${published.key}${published.secret}${timestamp}`)
      .digest('hex');
    const result = await main(
      [...args({ key: published.key, timestamp, signature }), '--secret-env', 'VMS_SECRET'],
      io({ VMS_SECRET: published.secret }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'lowercase hex SHA-256 of key + secret + UTC time as YYYYMMDDHHmmss, timestamp not sent',
    );
    expect(result.stdout).toContain('"form": "YYYYMMDDHHmmss"');
  });

  it('--json prints a report that parses, with the sandbox recipe as found', async () => {
    const result = await main(
      [...args(published), '--secret-stdin', '--json'],
      io({}, 'foobar\r\n'),
    );
    expect(result.code).toBe(0);
    const report = reportSchema.parse(JSON.parse(result.stdout));
    expect(report.matched).toBe(true);
    expect(report.matches).toEqual([
      {
        description: 'lowercase hex SHA-256 of key + secret + Unix seconds, timestamp not sent',
        signature: {
          hash: 'sha256',
          order: ['key', 'secret', 'timestamp'],
          timestamp: { form: 'unix-seconds', travel: 'none' },
          encoding: 'hex',
          keyHeader: 'x-api-key',
          signatureHeader: 'x-signature',
        },
      },
    ]);
  });

  it('reads only the first line of stdin as the secret', async () => {
    const result = await main(
      [...args(published), '--secret-stdin'],
      io({}, 'foobar\nsecond line\n'),
    );
    expect(result.code).toBe(0);
  });

  it('exits 1 and says so when no recipe matches', async () => {
    const result = await main(
      [...args({ ...published, signature: 'ab'.repeat(32) }), '--secret-env', 'S', '--json'],
      io({ S: 'foobar' }),
    );
    expect(result.code).toBe(1);
    expect(reportSchema.parse(JSON.parse(result.stdout))).toMatchObject({
      matched: false,
      matches: [],
    });
    const text = await main(
      [...args({ ...published, signature: 'ab'.repeat(32) }), '--secret-env', 'S'],
      io({ S: 'foobar' }),
    );
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^No recipe matches/);
  });

  it('finds an HMAC-SHA512 base64 recipe over a body file', async () => {
    const body = '[{"Req_Id":"R-1"}]\n';
    const path = join(dir, 'body.json');
    writeFileSync(path, body);
    const timestamp = '2026-11-27T10:15:30Z';
    const signature = createHmac('sha512', 'hmac-secret')
      .update(`k-1${timestamp}${body}`)
      .digest('base64');
    const result = await main(
      [
        ...args({ key: 'k-1', timestamp, signature }),
        '--body-file',
        path,
        '--secret-env',
        'S',
        '--json',
      ],
      io({ S: 'hmac-secret' }),
    );
    expect(result.code).toBe(0);
    const report = reportSchema.parse(JSON.parse(result.stdout));
    expect(report.matches.map((m) => m.signature)).toEqual([
      expect.objectContaining({
        hash: 'hmac-sha512',
        order: ['key', 'timestamp', 'body'],
        encoding: 'base64',
      }),
    ]);
  });

  it('reports ambiguity when the key is empty', async () => {
    const sha = createHash('sha256').update(`foobar${published.timestamp}`).digest('hex');
    const ambiguous = await main(
      [...args({ ...published, key: '', signature: sha }), '--secret-env', 'S', '--json'],
      io({ S: 'foobar' }),
    );
    expect(ambiguous.code).toBe(0);
    const report = reportSchema.parse(JSON.parse(ambiguous.stdout));
    expect(report.matches).toHaveLength(3);
    expect(report.notes.join(' ')).toMatch(/3 recipes reproduce this signature/);
  });

  it.each([
    [
      ['--secret', 'hunter2-do-not-print', ...args(published)],
      /^doctor find-recipe: --secret is refused: .*--secret-env NAME.*--secret-stdin/,
    ],
    [[...args(published).slice(2), '--secret-env', 'S'], /--key is missing; usage:/],
    [
      [...args({ ...published, timestamp: 'yesterday' }), '--secret-env', 'S'],
      /--timestamp must be written as it was signed/,
    ],
    [
      [...args({ ...published, signature: 'zz!' }), '--secret-env', 'S'],
      /--signature must be hex or base64/,
    ],
    [args(published), /give the secret one way/],
    [[...args(published), '--secret-env', 'S', '--secret-stdin'], /give the secret one way/],
    [
      [...args(published), '--secret-env', 'UNSET_NAME'],
      /the environment variable UNSET_NAME is not set/,
    ],
    [
      [...args(published), '--secret-env', 'S', '--body-file', '/nonexistent/body.json'],
      /cannot read \/nonexistent\/body.json: no such file/,
    ],
    [[...args(published), '--secret-env', 'S', '--colour'], /Unknown option '--colour'/],
  ])('exits 2 with one line on stderr for %j', async (argv, message) => {
    const result = await main(argv, io({ S: 'foobar' }));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(oneLine(result.stderr)).toMatch(message);
    expect(result.stderr).not.toContain('hunter2');
  });

  it('never prints the secret, in any outcome', async () => {
    const secret = 'very-distinctive-secret-9c1f';
    const runs = [
      await main([...args(published), '--secret-env', 'S'], io({ S: secret })),
      await main([...args(published), '--secret-env', 'S', '--json'], io({ S: secret })),
      await main([...args(published), '--secret-stdin'], io({}, `${secret}\n`)),
      await main([...args({ ...published, timestamp: 'x' }), '--secret-stdin'], io({}, secret)),
      await main(['--secret', secret, ...args(published)], io()),
    ];
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
  });
});

describe('doctor', () => {
  it('lists its subcommands in --help', async () => {
    const result = await doctor(['--help'], io());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/subcommands:\n {2}check .*\n {2}find-recipe /);
  });

  it('exits 2 naming the subcommands when an unknown one is given', async () => {
    const result = await doctor(['check-connection'], io());
    expect(result.code).toBe(2);
    expect(oneLine(result.stderr)).toMatch(/the subcommands are: check, find-recipe/);
  });

  it('runs as `npm run doctor` does, with the secret from the environment', () => {
    const result = spawnSync(
      join('node_modules', '.bin', 'tsx'),
      [
        'src/cli/doctor.ts',
        'find-recipe',
        ...args(published),
        '--secret-env',
        'FIND_RECIPE_SECRET',
        '--json',
      ],
      { encoding: 'utf8', env: { ...process.env, FIND_RECIPE_SECRET: 'foobar' } },
    );
    expect(result.status, result.stderr).toBe(0);
    expect(reportSchema.parse(JSON.parse(result.stdout)).matched).toBe(true);
    const none = spawnSync(
      join('node_modules', '.bin', 'tsx'),
      ['src/cli/doctor.ts', 'find-recipe', ...args(published), '--secret-stdin'],
      { encoding: 'utf8', input: 'not-foobar\n' },
    );
    expect(none.status).toBe(1);
  });
});
