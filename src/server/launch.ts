import { existsSync } from 'node:fs';
import { sandboxSettingsChanged } from '@/sandbox/index';
import { ConfigError, isLoopbackHost, loadConfig, type PortalConfig } from './config';
import { embeddedSandbox, startPortal, type RunningPortal } from './start';

/**
 * What `npm start` and `npm run dev` share: read `.env` and the environment, report a bad setting
 * in one line, start the portal, describe where calls go, and stop cleanly on Ctrl-C. `beside`
 * starts what runs with the portal (Vite, in dev), says where to open it, and returns how to stop
 * it before the portal drains; a failure to start either is one line and exit 1.
 */
export async function launch(
  beside: (config: PortalConfig, portal: RunningPortal) => Promise<(() => Promise<void>) | null>,
): Promise<void> {
  const config = readConfigOrExit();
  try {
    const portal = await startPortal(config);
    const stopBeside = await beside(config, portal);
    printUpstream(config, portal);
    closeOnSignals(async () => {
      await stopBeside?.();
      await portal.drain();
    });
  } catch (error) {
    console.error(describeStartFailure(error, config));
    process.exit(1);
  }
}

function readConfigOrExit(): PortalConfig {
  // Node's own .env reader (20.12+); variables already in the environment win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}

function describeStartFailure(error: unknown, config: PortalConfig): string {
  const code = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined;
  if (code === 'EADDRINUSE') {
    return `Could not start: a port is already in use (PORT=${config.port}, SANDBOX_PORT=${config.sandboxPort}). Stop the other program or choose other ports.`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `Could not start: HOST=${config.host} is not an address of this machine.`;
  }
  return `Could not start: ${error instanceof Error ? error.message : String(error)}`;
}

function printUpstream(config: PortalConfig, portal: RunningPortal): void {
  const sandbox = embeddedSandbox(config);
  // The embedded sandbox's settings that differ from docs/sandbox.md's defaults: which rules the
  // calls to it meet is then on the start line, not guessed.
  const changed = sandbox
    ? sandboxSettingsChanged({
        profile: sandbox.upstream.profileSetting,
        dateFormat: sandbox.dateFormat,
        maxBatch: sandbox.maxBatch,
        processingDelayMs: sandbox.upstream.processingDelayMs,
        clockSkewMs: sandbox.upstream.clockSkewMs,
        blankMaximumBillRate: sandbox.upstream.blankMaximumBillRate,
      })
    : [];
  const rules = changed.length === 0 ? '' : `; set: ${changed.join(', ')}`;
  if (config.vmsBaseUrl === null) {
    console.log(
      `upstream: sandbox at ${portal.upstreamUrl} (demo credentials, data in ${config.sandboxDb}${rules})`,
    );
  } else {
    console.log(`upstream: ${new URL(config.vmsBaseUrl).host} (${config.vmsBaseUrl})`);
    if (sandbox) {
      console.log(
        `sandbox connection ${sandbox.name}: demo credentials, data in ${config.sandboxDb}${rules}`,
      );
    }
  }
  if (config.auth.required) {
    const why = !isLoopbackHost(config.host)
      ? `HOST=${config.host} is not loopback`
      : config.auth.trustProxy !== false
        ? 'TRUST_PROXY is set'
        : 'AUTH=on';
    console.log(`sign-in: required (${why}); accounts: npm run users -- list (docs/deployment.md)`);
  }
}

/**
 * SIGTERM (an orchestrator, systemd) or SIGINT (Ctrl-C): `stop` drains the portal and the process
 * exits 0 once it is done. A second signal during the drain exits at once, with 1: the calls still
 * waiting are given up without their keys being marked, which is safe (a key left `in_flight` is
 * never read as "not sent": another process refuses it, a restart marks it unknown) but not a
 * clean stop, and the exit status says so.
 */
function closeOnSignals(stop: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      console.log(`${signal} again: stopping now, without waiting for the calls in flight`);
      process.exit(1);
    }
    closing = true;
    console.log(`${signal}: draining…`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
