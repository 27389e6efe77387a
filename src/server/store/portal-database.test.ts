import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPortalDatabase } from './portal-database';

// The portal database holds accounts, sessions and every call's bodies: only the portal's own
// user may read it, whatever the umask of the shell that started the portal.

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the PORTAL_DB file', () => {
  it('is made 0600 with its -wal and -shm, in folders the portal makes 0700', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-modes-'));
    dirs.push(dir);
    const path = join(dir, 'data', 'portal', 'portal.db');
    // No concern's tables: the file's modes are the shared module's, whatever the schema.
    const opened = await openPortalDatabase(path, []);
    try {
      // A write, so that the write-ahead log and its index exist.
      opened.db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1);');
      expect({
        db: modeOf(path),
        wal: modeOf(`${path}-wal`),
        shm: modeOf(`${path}-shm`),
        folder: modeOf(join(dir, 'data', 'portal')),
        parent: modeOf(join(dir, 'data')),
      }).toEqual({ db: 0o600, wal: 0o600, shm: 0o600, folder: 0o700, parent: 0o700 });
    } finally {
      await opened.close();
    }
  });
});
