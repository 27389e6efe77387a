/**
 * SQLite result codes that mean the storage, not the item, failed (disk full, I/O error, locked,
 * read-only, corrupt…): retrying the same item later is right, marking it Error would be wrong.
 */
const storageFailureCodes = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
  'SQLITE_NOMEM',
  'SQLITE_PROTOCOL',
];

export function isStorageFailure(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return (
    typeof code === 'string' &&
    storageFailureCodes.some((failure) => code === failure || code.startsWith(`${failure}_`))
  );
}
