import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Running a TypeScript entry in a child Node process, from any working directory (the tests give
 * each child a fresh temporary one, so no .env of the project is read):
 * - tsx's loader by its path: `--import tsx` would be resolved from the child's working
 *   directory, which has no node_modules above it;
 * - the project's tsconfig.json by TSX_TSCONFIG_PATH: tsx looks for one from the working
 *   directory too, and without it `@/…` (its paths) names nothing.
 */
export const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export const tsxEnv = {
  TSX_TSCONFIG_PATH: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
};
