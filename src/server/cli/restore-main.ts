import { existsSync } from 'node:fs';
import { runRestoreCli } from './backup';

// `npm run restore -- …` (see backup.ts). Reads `.env` like `npm start`, for PORTAL_DB or DATABASE_URL.
if (existsSync('.env')) process.loadEnvFile('.env');
process.exitCode = await runRestoreCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
