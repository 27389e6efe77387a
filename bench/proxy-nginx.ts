/**
 * Proxy benchmark helper: nginx in front of the bench upstream, started with its own config in a
 * temporary directory. Two configurations: `stock` is a plain `proxy_pass` with nginx's defaults
 * (HTTP/1.0 to the upstream, a new upstream connection per request, bodies over 16 KB buffered to
 * a temp file); `tuned` adds what a reverse proxy is usually given (upstream keep-alive, bodies
 * kept in memory). Both use one worker process, as our proxy is one Node process.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@/server/free-port';

export type NginxVariant = 'stock' | 'tuned';

export interface RunningNginx {
  port: number;
  stop(): void;
}

export function findNginx(): string | null {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', 'nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not installed here; try the next place
    }
  }
  return null;
}

function config(dir: string, variant: NginxVariant, port: number, upstreamPort: number): string {
  const location =
    variant === 'stock'
      ? `proxy_pass http://127.0.0.1:${upstreamPort};`
      : `proxy_pass http://vms; proxy_http_version 1.1; proxy_set_header Connection "";`;
  return `
${process.getuid?.() === 0 ? `user ${userInfo().username};` : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 5m;
  ${variant === 'tuned' ? `client_body_buffer_size 64k;\n  upstream vms { server 127.0.0.1:${upstreamPort}; keepalive 32; }` : ''}
  server {
    listen 127.0.0.1:${port};
    location / { ${location} }
  }
}
`;
}

export async function startNginx(
  binary: string,
  parentDir: string,
  variant: NginxVariant,
  upstreamPort: number,
): Promise<RunningNginx> {
  const dir = join(parentDir, `nginx-${variant}`);
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const configFile = join(dir, 'nginx.conf');
  writeFileSync(configFile, config(dir, variant, port, upstreamPort));
  const child: ChildProcess = spawn(binary, ['-c', configFile, '-p', dir], { stdio: 'inherit' });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'HEAD' });
      return { port, stop };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  stop();
  throw new Error(`nginx (${variant}) did not start; see ${dir}/error.log`);
}
