import { z } from 'zod';
import type { DateFormat } from '@/domain';
import { datePatternSchema } from '@/domain/date-patterns';
import { settingDefaults, type BlankMaximumBillRate } from '@/domain/settings';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { buildSandboxApp } from './app';
import { openSandboxDatabase } from './database';
import { loadReference } from './reference';
import { createStore } from './store';
import { createBatchWorker } from './worker';

export { resetSandboxDatabase } from './database';
export { sandboxDemo } from './demo';
export { sandboxEnvSchema } from './settings';

export interface SandboxOptions {
  /** Default 127.0.0.1: the sandbox is a local stand-in, not a service to expose. */
  host?: string;
  /** 0 = a free port (tests). */
  port: number;
  dbPath: string;
  /** Wait before each item, so a client sees Pending and its polling is exercised. */
  processingDelayMs?: number;
  dateFormat?: DateFormat;
  /** Most items in one POST. Default 500. */
  maxBatch?: number;
  logger?: boolean;
  /** The sandbox's clock: signatures, timestamps and the no-new-submittals date. */
  now?: () => Date;
  /**
   * Puts the sandbox's clock this far ahead (negative: behind) of `now`, for signatures and its
   * Date header, so a client can be shown what a VMS with a wrong clock does to its calls.
   */
  clockSkewMs?: number;
  /**
   * What a requisition's blank `maximumbillrate` means: `no-limit` (default), or `hourly-high`,
   * as 0: a candidate's bill rate above the hourly high is refused. A rule another VMS may read
   * the other way, to see what such a change does to a suite.
   */
  blankMaximumBillRate?: BlankMaximumBillRate;
  /** Caps the database at this many pages (SQLite `max_page_count`): a full disk, on purpose. */
  maxDatabasePages?: number;
  /** First wait before the worker retries after a storage failure (default 500 ms). */
  retryDelayMs?: number;
  /** Most time a client may take to send a whole request (default 60 s). */
  requestTimeoutMs?: number;
  /**
   * Answer as a VMS of this profile would (default: the sandbox's own, in `dateFormat`). Its
   * outbound date format then stands for `dateFormat`.
   */
  profile?: VmsProfile;
}

/** The rules a sandbox's settings choose beyond its address and file (docs/sandbox.md). */
export interface SandboxRules {
  processingDelayMs: number;
  clockSkewMs: number;
  blankMaximumBillRate: BlankMaximumBillRate;
}

/** The sandbox's settings as a start line shows them: its profile by the name it was given. */
export type SandboxSettingsShown = SandboxRules & {
  profile: string | null;
  dateFormat: DateFormat;
  maxBatch: number;
};

/**
 * The settings that differ from a sandbox's defaults, each in a few words, for the line a start
 * prints (`npm run sandbox`, and `npm start` for its embedded one): none when it runs as
 * docs/sandbox.md describes it.
 */
export function sandboxSettingsChanged(shown: SandboxSettingsShown): string[] {
  const changed: string[] = [];
  if (shown.profile !== null && shown.profile !== 'sandbox')
    changed.push(`profile ${shown.profile}`);
  if (shown.dateFormat !== settingDefaults.dateFormat) changed.push(`dates ${shown.dateFormat}`);
  if (shown.maxBatch !== settingDefaults.maxBatch) {
    changed.push(`at most ${shown.maxBatch} items a batch`);
  }
  if (shown.processingDelayMs !== settingDefaults.processingDelayMs) {
    changed.push(`${shown.processingDelayMs} ms before each item`);
  }
  if (shown.clockSkewMs !== settingDefaults.clockSkewMs) {
    changed.push(
      `clock ${Math.abs(shown.clockSkewMs)} ms ${shown.clockSkewMs > 0 ? 'ahead' : 'behind'}`,
    );
  }
  if (shown.blankMaximumBillRate === 'hourly-high') {
    changed.push('a blank maximumbillrate read as the hourly high');
  }
  return changed;
}

export interface RunningSandbox {
  url: string;
  port: number;
  /** Problems now (the batch worker's storage): none when it is well. */
  health(): string[];
  close(): Promise<void>;
}

const optionsSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535),
  dbPath: z.string().min(1),
  processingDelayMs: z.number().int().min(0).default(settingDefaults.processingDelayMs),
  dateFormat: datePatternSchema('date', 'dateFormat').default(settingDefaults.dateFormat),
  maxBatch: z.number().int().min(1).default(settingDefaults.maxBatch),
  logger: z.boolean().default(false),
});

/**
 * An address a browser can open for a server listening on `host`: a wildcard bind is reachable on
 * loopback, IPv6 is bracketed. The portal's own address is written the same way.
 */
export function browsableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** Starts the sandbox VMS: opens (or creates and seeds) the database, listens, resumes Pending items. */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const parsed = optionsSchema.parse(options);
  const profile = options.profile ?? sandboxProfile(parsed.dateFormat);
  const settings = { ...parsed, dateFormat: profile.dates.outbound };
  const clock = options.now ?? (() => new Date());
  const skewMs = options.clockSkewMs ?? 0;
  const now = skewMs === 0 ? clock : () => new Date(clock().getTime() + skewMs);
  const db = openSandboxDatabase(settings.dbPath);
  if (options.maxDatabasePages !== undefined)
    db.pragma(`max_page_count = ${options.maxDatabasePages}`);
  const reference = loadReference(db);
  const store = createStore(db);
  const worker = createBatchWorker({
    store,
    reference,
    dateFormat: settings.dateFormat,
    processingDelayMs: settings.processingDelayMs,
    ...(options.blankMaximumBillRate ? { blankMaximumBillRate: options.blankMaximumBillRate } : {}),
    now,
    // The item itself gets an Error result saying so; the stack goes to whoever runs the sandbox.
    onUnexpectedError: (error) => console.error('Sandbox VMS: a batch item failed:', error),
    onStorageHealth: (error) =>
      error === null
        ? console.error('Sandbox VMS: storage works again; processing resumes.')
        : console.error('Sandbox VMS: storage failed; items stay Pending and are retried:', error),
    ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
  });
  const app = buildSandboxApp({
    ...settings,
    reference,
    store,
    worker,
    now,
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    profile,
  });
  try {
    await app.listen({ host: settings.host, port: settings.port });
  } catch (error) {
    db.close();
    throw error;
  }
  worker.start();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${browsableHost(settings.host)}:${port}`,
    port,
    health: () => worker.health(),
    close() {
      // Worker first (it finishes the item in hand), then in-flight requests, then the file.
      closing ??= (async () => {
        await worker.stop();
        await app.close();
        db.close();
      })();
      return closing;
    },
  };
}
