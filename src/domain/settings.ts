import { z } from 'zod';
import { datePatternSchema } from './date-patterns';

/**
 * Settings read from the environment by the portal server (src/server/config.ts) and the sandbox
 * (src/sandbox/settings.ts): the building blocks, and the settings both read, each with its
 * default written here once. Every message names the variable and says what it takes.
 */

/** `VAR=` in a .env file means "not set", as it does for most tools that read one. */
export const unsetWhenBlank = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

export function wholeNumber(name: string, min: number, max: number, example: string) {
  return unsetWhenBlank.transform((value, ctx) => {
    if (value === undefined) return undefined;
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be a whole number from ${min} to ${max} (for example ${example}); got "${value}".`,
      });
      return z.NEVER;
    }
    return parsed;
  });
}

export function oneOf<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  return unsetWhenBlank.pipe(
    z
      .enum(values, {
        error: (issue) =>
          `${name} must be one of ${values.join(', ')}; got "${String(issue.input)}".`,
      })
      .optional(),
  );
}

/** A setting with its default: unset (or blank) reads as `fallback`. */
export function withDefault<T>(schema: z.ZodType<T | undefined, string | undefined>, fallback: T) {
  return schema.transform((value) => value ?? fallback);
}

/** A whole number from `min` to `max`, `fallback` when unset: the example its message gives. */
export function wholeNumberOr(name: string, min: number, max: number, fallback: number) {
  return withDefault(wholeNumber(name, min, max, String(fallback)), fallback);
}

/**
 * What a requisition's blank `maximumbillrate` means to the sandbox (decision 011, rule 13):
 * `no-limit`, its reading of "only present on requisitions where configured"; or `hourly-high`,
 * as if it were 0, the reading another VMS (or a later release of this one) may take.
 */
export const blankMaximumBillRates = ['no-limit', 'hourly-high'] as const;
export type BlankMaximumBillRate = (typeof blankMaximumBillRates)[number];

/** The defaults, once: the settings below, and the sandbox's own options, read them from here. */
export const settingDefaults = {
  dateFormat: 'YYYY-MM-DD',
  maxBatch: 500,
  sandboxPort: 8788,
  sandboxDb: './data/sandbox.db',
  processingDelayMs: 20,
  clockSkewMs: 0,
  blankMaximumBillRate: 'no-limit',
} as const satisfies Record<string, string | number>;

/** A sandbox's clock may be off by up to a day either way. */
export const clockSkewLimitMs = 24 * 60 * 60 * 1000;

/** Milliseconds, negative for a clock behind; within a day either way. */
const clockSkew = unsetWhenBlank.transform((value, ctx) => {
  if (value === undefined) return settingDefaults.clockSkewMs;
  const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || Math.abs(parsed) > clockSkewLimitMs) {
    ctx.addIssue({
      code: 'custom',
      message: `SANDBOX_CLOCK_SKEW_MS must be a whole number of milliseconds from -${clockSkewLimitMs} to ${clockSkewLimitMs} (for example 600000 for ten minutes ahead); got "${value}".`,
    });
    return z.NEVER;
  }
  return parsed;
});

/**
 * The settings the portal server (for its embedded sandbox) and `npm run sandbox` both read: every
 * setting docs/sandbox.md lists means the same to a sandbox either way.
 */
export const sharedSettings = {
  VMS_DATE_FORMAT: unsetWhenBlank.pipe(
    datePatternSchema('date', 'VMS_DATE_FORMAT').default(settingDefaults.dateFormat),
  ),
  VMS_MAX_BATCH: wholeNumberOr('VMS_MAX_BATCH', 1, 100_000, settingDefaults.maxBatch),
  SANDBOX_PORT: wholeNumberOr('SANDBOX_PORT', 0, 65535, settingDefaults.sandboxPort),
  SANDBOX_DB: unsetWhenBlank.transform((value) => value ?? settingDefaults.sandboxDb),
  SANDBOX_PROCESSING_DELAY_MS: wholeNumberOr(
    'SANDBOX_PROCESSING_DELAY_MS',
    0,
    60_000,
    settingDefaults.processingDelayMs,
  ),
  /** Answer as a VMS of this profile: a preset's name or a profile JSON file (default its own). */
  SANDBOX_PROFILE: unsetWhenBlank,
  /** Puts the sandbox's clock this many ms ahead (negative: behind), to try a client's clock check. */
  SANDBOX_CLOCK_SKEW_MS: clockSkew,
  /** What a requisition's blank maximumbillrate means for a candidate's bill rate. */
  SANDBOX_BLANK_MAXIMUM_BILL_RATE: withDefault(
    oneOf('SANDBOX_BLANK_MAXIMUM_BILL_RATE', blankMaximumBillRates),
    settingDefaults.blankMaximumBillRate,
  ),
};

/** One line naming every problem, for a process that cannot start. */
export function settingsProblem(error: z.ZodError): string {
  return error.issues.map((issue) => issue.message).join(' ');
}
