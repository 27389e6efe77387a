import {
  browsableHost,
  startSandbox,
  type RunningSandbox,
  type SandboxOptions,
} from '@/sandbox/index';
import { buildPortal, type BuildPortalOptions } from './app';
import type { Connection, PortalConfig } from './config';
import type { DrainReport } from './ops/drain';

export interface StartPortalOptions extends Omit<BuildPortalOptions, 'sandboxUrl'> {
  /** Passed to the embedded sandbox when VMS_BASE_URL is unset (e2e tests shorten its delay). */
  sandbox?: Pick<
    SandboxOptions,
    'processingDelayMs' | 'logger' | 'maxDatabasePages' | 'retryDelayMs'
  >;
}

export interface RunningPortal {
  /** Where to open the portal, e.g. http://127.0.0.1:8787 */
  url: string;
  /** Where VMS calls go: VMS_BASE_URL, or the embedded sandbox's address. */
  upstreamUrl: string;
  /** Stops the portal, then the sandbox it started (if any). */
  close(): Promise<void>;
  /**
   * Stops the portal without losing a send (SIGTERM): refuses new sends, lets the calls at the
   * VMS finish for up to PORTAL_DRAIN_TIMEOUT_MS, marks the keys of any still waiting unknown,
   * writes the journal and closes the database; then stops the sandbox it started.
   */
  drain(): Promise<DrainReport>;
}

/** The connection that is the embedded sandbox, when one is. */
export function embeddedSandbox(
  config: PortalConfig,
): (Connection & { upstream: Extract<Connection['upstream'], { kind: 'sandbox' }> }) | undefined {
  return config.connections.find(
    (
      connection,
    ): connection is Connection & {
      upstream: Extract<Connection['upstream'], { kind: 'sandbox' }>;
    } => connection.upstream.kind === 'sandbox',
  );
}

/**
 * Starts the portal server; with VMS_BASE_URL unset it first starts the embedded sandbox VMS
 * (always on loopback: its demo credentials are public) and points the proxy at it.
 * `config.port` / `config.sandboxPort` 0 pick free ports.
 */
export async function startPortal(
  config: PortalConfig,
  options: StartPortalOptions = {},
): Promise<RunningPortal> {
  let sandbox: RunningSandbox | undefined;
  // The embedded sandbox runs for the connection that is it, default or not, and speaks as
  // that connection's settings say.
  const sandboxConnection = embeddedSandbox(config);
  if (sandboxConnection) {
    sandbox = await startSandbox({
      host: '127.0.0.1',
      port: config.sandboxPort,
      dbPath: config.sandboxDb,
      dateFormat: sandboxConnection.dateFormat,
      profile: sandboxConnection.profile,
      maxBatch: sandboxConnection.maxBatch,
      processingDelayMs: config.sandboxProcessingDelayMs,
      clockSkewMs: sandboxConnection.upstream.clockSkewMs,
      blankMaximumBillRate: sandboxConnection.upstream.blankMaximumBillRate,
      ...options.sandbox,
    });
  }

  try {
    const { sandbox: _sandboxOptions, ...buildOptions } = options;
    const app = buildPortal(config, {
      ...buildOptions,
      ...(sandbox ? { sandboxUrl: sandbox.url, healthChecks: [sandbox.health] } : {}),
    });
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    return {
      url: `http://${browsableHost(config.host)}:${port}`,
      upstreamUrl: config.vmsBaseUrl ?? sandbox?.url ?? '',
      close: async () => {
        await app.close();
        await sandbox?.close();
      },
      drain: async () => {
        const report = await app.drainPortal();
        await sandbox?.close();
        return report;
      },
    };
  } catch (error) {
    await sandbox?.close();
    throw error;
  }
}
