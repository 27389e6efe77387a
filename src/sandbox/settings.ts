import { z } from 'zod';
import { sharedSettings, unsetWhenBlank } from '../domain/settings';

/**
 * `npm run sandbox`'s settings: the ones it shares with the portal server (and their defaults)
 * from domain/settings.ts, nothing of its own.
 */
export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: sharedSettings.SANDBOX_PORT,
  SANDBOX_DB: sharedSettings.SANDBOX_DB,
  SANDBOX_PROCESSING_DELAY_MS: sharedSettings.SANDBOX_PROCESSING_DELAY_MS,
  VMS_DATE_FORMAT: sharedSettings.VMS_DATE_FORMAT,
  VMS_MAX_BATCH: sharedSettings.VMS_MAX_BATCH,
  /** Answer as a VMS of this profile: a preset's name or a profile JSON file (default its own). */
  SANDBOX_PROFILE: unsetWhenBlank,
});
export type SandboxEnv = z.infer<typeof sandboxEnvSchema>;
