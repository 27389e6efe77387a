/**
 * The import benchmark's peer page (bench/import-peer): bundled and minified by esbuild into a
 * temporary folder, as production code like the portal's, and served by Fastify with the
 * portal's script policy (script-src 'self', so nothing may eval: zod runs jitless here as in
 * the portal, by the same zod-config module).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { build } from 'esbuild';
import Fastify from 'fastify';
import type { PeerPage } from './browser-peer';

export async function startImportPeerPage(): Promise<PeerPage> {
  const source = join(import.meta.dirname, 'import-peer');
  const outDir = mkdtempSync(join(tmpdir(), 'bench-import-peer-'));
  await build({
    entryPoints: {
      page: join(source, 'page.ts'),
      'peer.worker': join(source, 'peer.worker.ts'),
    },
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  copyFileSync(join(source, 'index.html'), join(outDir, 'index.html'));
  const app = Fastify();
  app.addHook('onSend', async (_request, reply) => {
    reply.header(
      'content-security-policy',
      "default-src 'self'; script-src 'self'; worker-src 'self'; object-src 'none'",
    );
  });
  await app.register(fastifyStatic, { root: outDir });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    close: async () => {
      await app.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
