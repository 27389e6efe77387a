// `node scripts/run-built.mjs cli/validate.mjs …`: runs a command that `npm run build` makes,
// after checking the Node version, and says in one line what to run when it is not built yet.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import './check-node.mjs';

const [file, ...args] = process.argv.slice(2);
const built = join(dirname(fileURLToPath(import.meta.url)), '..', 'build', file ?? '');
if (!file || !existsSync(built)) {
  console.error(
    `${file ?? 'That command'} is not built yet: run npm run build (or npm start, which builds it) and then this command again.`,
  );
  process.exit(2);
}
const run = spawnSync(process.execPath, ['--enable-source-maps', built, ...args], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
