import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-cli';

// `npm start` runs the server built to JavaScript (build/server/main.mjs) with plain node.
// Built inside the project, as npm start builds it, so its packages resolve from node_modules.
const root = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(root, 'build'), { recursive: true });
const dir = mkdtempSync(join(root, 'build', '.test-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built server', () => {
  it('starts with plain node, with its sandbox, and answers through the signing proxy', async () => {
    const main = await buildServer(join(dir, 'server'));
    const child = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        PORT: '0',
        SANDBOX_PORT: '0',
        SANDBOX_DB: join(dir, 'sandbox.db'),
        PORTAL_DB: join(dir, 'portal.db'),
        LOG_LEVEL: 'silent',
        VMS_BASE_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /VMS submission portal: (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      const listed = await fetch(
        `${url}/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001`,
      );
      expect(listed.status).toBe(200);
      expect(((await listed.json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('on a Node too old for its SQLite driver, says so in one line and exits 1 before loading it', async () => {
    const main = await buildServer(join(dir, 'old-node'));
    // This Node, told to call itself 20.20.2 before the entry runs: the entry reads only the
    // version, so it answers as it would on that Node, and must not load the portal.
    const preload = join(dir, 'old-node', 'pretend-node-20.mjs');
    writeFileSync(
      preload,
      "Object.defineProperty(process.versions, 'node', { value: '20.20.2' });\n",
    );
    const run = spawnSync(process.execPath, ['--import', pathToFileURL(preload).href, main], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, PORT: '0', LOG_LEVEL: 'silent' },
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      'The VMS portal needs Node 22.12 or newer (Node 24 LTS recommended); this is Node 20.20.2. Install Node 24 (for example: nvm install 24) and run the command again.',
    ]);
  });
});
