/** The benchmarks' child processes: helpers through tsx, the built portal, their CPU time. */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sandboxDemo } from '@/sandbox';

export function pidsOf(children: ChildProcess[]): number[] {
  return children.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
}

/** CPU time (user + system) the processes have used so far, in ms, from /proc (Linux). */
export function cpuMs(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      // The fields after the name in parentheses: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      return Number.NaN;
    }
  }
  // USER_HZ is 100 on Linux.
  return ticks * 10;
}

export interface Child {
  child: ChildProcess;
  port: number;
}

/** A bench helper (TypeScript, through tsx) in its own process; it reports its port over IPC. */
export function forkHelper(file: string, env: Record<string, string>): Promise<Child> {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${file} exited early with code ${code}`)));
    child.once('message', (message: unknown) => {
      const port: unknown =
        typeof message === 'object' && message !== null ? Reflect.get(message, 'port') : undefined;
      if (typeof port === 'number' && port > 0) resolve({ child, port });
      else reject(new Error(`${file} did not report its port`));
    });
  });
}

/** The built server (`node main.mjs`), as `npm start` runs it, against a remote VMS. */
export function startPortalProcess(
  main: string,
  vmsUrl: string,
  store: { databaseUrl: string } | { portalDb: string },
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--enable-source-maps', main], {
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      VMS_BASE_URL: vmsUrl,
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_CLIENT_ORGS: sandboxDemo.clientOrgIds.join(','),
      VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
      VMS_PRODUCTION: 'off',
      // Every client is at 127.0.0.1: the per-client limit would be the bench's bottleneck.
      PORTAL_RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      ...('databaseUrl' in store
        ? { DATABASE_URL: store.databaseUrl }
        : { PORTAL_DB: store.portalDb }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /VMS submission portal: (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    // After start, warnings still go to the bench's own stderr: an error there is worth seeing.
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stderr.write(chunk);
    });
    child.once('exit', (code) => reject(new Error(`portal exited ${code}: ${output}`)));
  });
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    if (child.connected) child.disconnect();
    else child.kill('SIGTERM');
  });
}

/** Each call's time inside the sandbox (load-sandbox.ts), by batch id. */
export interface VmsTimings {
  sends: [string, number][];
  polls: [string, number[]][];
  /** Results calls: how many, the most at once, when the first began and the last ended (ms). */
  results: { count: number; maxInFlight: number; firstAt: number; lastAt: number };
}

export function askTimings(child: ChildProcess): Promise<VmsTimings> {
  return new Promise((resolve) => {
    const listen = (message: unknown) => {
      const timings: unknown =
        typeof message === 'object' && message !== null ? Reflect.get(message, 'timings') : null;
      if (!timings) return;
      child.off('message', listen);
      resolve(timings as VmsTimings);
    };
    child.on('message', listen);
    child.send('timings');
  });
}
