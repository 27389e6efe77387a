/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside each text file of the build, at the highest
 * levels, once: the portal server sends them to browsers that accept them (@fastify/static's
 * `preCompressed`) instead of compressing on every request or not at all. A copy that would not be
 * smaller is not written, and the server then sends the file as it is.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const compressible = /\.(?:js|mjs|css|html|svg|json|txt)$/;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (compressible.test(name)) yield path;
  }
}

/** Compresses every text file under `dir`; the sizes before and after brotli, in bytes. */
export function precompressDir(dir: string): { raw: number; brotli: number } {
  let raw = 0;
  let brotli = 0;
  for (const path of files(dir)) {
    const content = readFileSync(path);
    const br = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    const gz = gzipSync(content, { level: 9 });
    if (br.length < content.length) writeFileSync(`${path}.br`, br);
    if (gz.length < content.length) writeFileSync(`${path}.gz`, gz);
    raw += content.length;
    brotli += Math.min(br.length, content.length);
  }
  return { raw, brotli };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { raw, brotli } = precompressDir(join(import.meta.dirname, '..', 'dist'));
  console.log(
    `precompress: ${(raw / 1024).toFixed(0)} KB of text → ${(brotli / 1024).toFixed(0)} KB brotli`,
  );
}
