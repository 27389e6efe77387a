import { z } from 'zod';
import { sharedSettings } from '@/domain/settings';

/**
 * `npm run sandbox`'s settings: the same as the portal server's for its embedded sandbox, with
 * their defaults, from domain/settings.ts.
 */
export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: sharedSettings.SANDBOX_PORT,
  SANDBOX_DB: sharedSettings.SANDBOX_DB,
  SANDBOX_PROCESSING_DELAY_MS: sharedSettings.SANDBOX_PROCESSING_DELAY_MS,
  VMS_DATE_FORMAT: sharedSettings.VMS_DATE_FORMAT,
  VMS_MAX_BATCH: sharedSettings.VMS_MAX_BATCH,
  SANDBOX_PROFILE: sharedSettings.SANDBOX_PROFILE,
  SANDBOX_CLOCK_SKEW_MS: sharedSettings.SANDBOX_CLOCK_SKEW_MS,
  SANDBOX_BLANK_MAXIMUM_BILL_RATE: sharedSettings.SANDBOX_BLANK_MAXIMUM_BILL_RATE,
});
export type SandboxEnv = z.infer<typeof sandboxEnvSchema>;
