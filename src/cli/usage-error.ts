/** A problem with the command or its files: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** A file that cannot be read, said the way a user fixes it. */
export const cannotRead = (file: string, error: unknown) =>
  new UsageError(
    `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
  );
