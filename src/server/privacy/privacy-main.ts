import { existsSync } from 'node:fs';
import { runPrivacyCli } from './privacy-cli';

// `npm run privacy -- …` (see privacy-cli.ts). Reads `.env` like `npm start`, for PORTAL_DB or DATABASE_URL.
if (existsSync('.env')) process.loadEnvFile('.env');
process.exitCode = await runPrivacyCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
