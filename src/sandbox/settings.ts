import { z } from 'zod';
import { oneOf, sharedSettings, unsetWhenBlank, withDefault } from '@/domain/settings';
import { blankMaximumBillRates } from './item-context';

const dayMs = 24 * 60 * 60 * 1000;

/** Milliseconds, negative for a clock behind; within a day either way. */
const clockSkew = unsetWhenBlank.transform((value, ctx) => {
  if (value === undefined) return 0;
  const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || Math.abs(parsed) > dayMs) {
    ctx.addIssue({
      code: 'custom',
      message: `SANDBOX_CLOCK_SKEW_MS must be a whole number of milliseconds from -${dayMs} to ${dayMs} (for example 600000 for ten minutes ahead); got "${value}".`,
    });
    return z.NEVER;
  }
  return parsed;
});

/**
 * `npm run sandbox`'s settings: the ones it shares with the portal server (and their defaults)
 * from domain/settings.ts, and its clock skew.
 */
export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: sharedSettings.SANDBOX_PORT,
  SANDBOX_DB: sharedSettings.SANDBOX_DB,
  SANDBOX_PROCESSING_DELAY_MS: sharedSettings.SANDBOX_PROCESSING_DELAY_MS,
  VMS_DATE_FORMAT: sharedSettings.VMS_DATE_FORMAT,
  VMS_MAX_BATCH: sharedSettings.VMS_MAX_BATCH,
  /** Answer as a VMS of this profile: a preset's name or a profile JSON file (default its own). */
  SANDBOX_PROFILE: unsetWhenBlank,
  /** Puts the sandbox's clock this many ms ahead (negative: behind), to try a client's clock check. */
  SANDBOX_CLOCK_SKEW_MS: clockSkew,
  /** What a requisition's blank maximumbillrate means for a candidate's bill rate. */
  SANDBOX_BLANK_MAXIMUM_BILL_RATE: withDefault(
    oneOf('SANDBOX_BLANK_MAXIMUM_BILL_RATE', blankMaximumBillRates),
    'no-limit',
  ),
});
export type SandboxEnv = z.infer<typeof sandboxEnvSchema>;
