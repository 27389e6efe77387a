/**
 * `npm run sandbox [-- --reset]`: the sandbox VMS on its own (the portal's `npm start` embeds it
 * instead when VMS_BASE_URL is unset). Settings come from the environment, checked before anything
 * starts; the secret is never printed (docs/sandbox.md has it).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { settingsProblem } from '@/domain/settings';
import { profileFromSetting } from '@/node/profile-setting';
import { sandboxEnvSchema, type SandboxEnv } from './settings';
import { resetSandboxDatabase, sandboxDemo, sandboxSettingsChanged, startSandbox } from './index';

function readEnvironment(): SandboxEnv {
  // Like the portal server, take a .env file when there is one; real variables win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  const parsed = sandboxEnvSchema.safeParse(process.env);
  if (parsed.success) return parsed.data;
  console.error(`Sandbox VMS not started: ${settingsProblem(parsed.error)} Fix or unset it.`);
  process.exit(1);
}

async function main(): Promise<void> {
  const env = readEnvironment();
  const profile = profileFromSetting('SANDBOX_PROFILE', env.SANDBOX_PROFILE, env.VMS_DATE_FORMAT);
  if ('problem' in profile) {
    console.error(`Sandbox VMS not started: ${profile.problem}`);
    process.exit(1);
  }
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
    profile: profile.profile,
    clockSkewMs: env.SANDBOX_CLOCK_SKEW_MS,
    blankMaximumBillRate: env.SANDBOX_BLANK_MAXIMUM_BILL_RATE,
  });
  const changed = sandboxSettingsChanged({
    profile: env.SANDBOX_PROFILE ?? null,
    dateFormat: env.VMS_DATE_FORMAT,
    maxBatch: env.VMS_MAX_BATCH,
    processingDelayMs: env.SANDBOX_PROCESSING_DELAY_MS,
    clockSkewMs: env.SANDBOX_CLOCK_SKEW_MS,
    blankMaximumBillRate: env.SANDBOX_BLANK_MAXIMUM_BILL_RATE,
  });
  console.log(
    `Sandbox VMS listening on ${sandbox.url} (database ${dbPath}${changed.map((rule) => `, ${rule}`).join('')})`,
  );
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
