/**
 * The browser benchmark's peer page (bench/minimal-form): built with Vite into a temporary
 * folder, precompressed as the portal's build is, and served by Fastify with @fastify/static as
 * the portal serves its own, so the two differ only in the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import { build } from 'vite';
import { precompressDir } from '../scripts/precompress';

export interface PeerPage {
  url: string;
  close(): Promise<void>;
}

export async function startPeerPage(): Promise<PeerPage> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-peer-'));
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'minimal-form'),
    logLevel: 'silent',
    plugins: [react()],
    build: { outDir, emptyOutDir: true },
  });
  precompressDir(outDir);
  const app = Fastify();
  await app.register(fastifyStatic, { root: outDir, preCompressed: true });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    close: async () => {
      await app.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
