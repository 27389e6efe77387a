/**
 * `npm run sandbox [-- --reset]`: the sandbox VMS on its own (the portal's `npm start` embeds it
 * instead when VMS_BASE_URL is unset). Settings come from the environment, checked before anything
 * starts; the secret is never printed (docs/sandbox.md has it).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { dateFormats } from '../domain';
import { resetSandboxDatabase, sandboxDemo, startSandbox } from './index';

/** An empty variable counts as unset, so `SANDBOX_PORT= npm run sandbox` takes the default. */
const unsetIfEmpty = (value: unknown) => (value === '' ? undefined : value);
const wholeNumber = (min: number, max: number, what: string) =>
  z.preprocess(
    unsetIfEmpty,
    z.coerce
      .number({ error: `must be ${what}` })
      .int({ error: `must be ${what}` })
      .min(min, { error: `must be ${what}` })
      .max(max, { error: `must be ${what}` })
      .optional(),
  );

const envSchema = z.object({
  SANDBOX_PORT: wholeNumber(0, 65535, 'a port number from 0 to 65535').default(8788),
  SANDBOX_DB: z.preprocess(unsetIfEmpty, z.string().optional()).default('./data/sandbox.db'),
  SANDBOX_PROCESSING_DELAY_MS: wholeNumber(0, 60_000, 'milliseconds from 0 to 60000').default(300),
  VMS_DATE_FORMAT: z
    .preprocess(
      unsetIfEmpty,
      z.enum(dateFormats, { error: `must be ${dateFormats.join(' or ')}` }).optional(),
    )
    .default('YYYY-MM-DD'),
  VMS_MAX_BATCH: wholeNumber(1, 10_000, 'a whole number from 1 to 10000').default(500),
});

function readEnvironment(): z.infer<typeof envSchema> {
  // Like the portal server, take a .env file when there is one; real variables win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const parsed = envSchema.safeParse(process.env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const name = String(issue?.path[0] ?? 'environment');
  console.error(
    `Sandbox VMS not started: ${name}=${JSON.stringify(process.env[name] ?? '')} ${issue?.message ?? 'is invalid'}; fix or unset it.`,
  );
  process.exit(1);
}

async function main(): Promise<void> {
  const env = readEnvironment();
  const dbPath = resolve(env.SANDBOX_DB);
  if (process.argv.includes('--reset')) {
    resetSandboxDatabase(dbPath);
    console.log(`Sandbox database re-created from the seed: ${dbPath}`);
  }
  const sandbox = await startSandbox({
    port: env.SANDBOX_PORT,
    dbPath,
    processingDelayMs: env.SANDBOX_PROCESSING_DELAY_MS,
    dateFormat: env.VMS_DATE_FORMAT,
    maxBatch: env.VMS_MAX_BATCH,
  });
  console.log(`Sandbox VMS listening on ${sandbox.url} (database ${dbPath})`);
  console.log(
    `Demo credentials: x-api-key ${sandboxDemo.apiKey}, vendor org ${sandboxDemo.vendorOrgId}, ` +
      `client orgs ${sandboxDemo.clientOrgIds.join(' and ')}; the secret is in docs/sandbox.md.`,
  );

  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(
    `Sandbox VMS failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
