/** A problem with the command or its files: one line on stderr, exit 2. */
export class UsageError extends Error {}

/** A file that cannot be read, said the way a user fixes it. */
export const cannotRead = (file: string, error: unknown) =>
  new UsageError(
    `cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
  );

/**
 * A wrong command (a UsageError, or an option node:util's parseArgs refused) as the one line on
 * stderr and exit 2 every command promises, prefixed with the command's name; anything else is
 * thrown. One line even when the message has several: JSON.parse quotes the source around the
 * error, newlines and all.
 */
export function usageFailure(
  command: string,
  error: unknown,
): { code: number; stdout: string; stderr: string } {
  if (
    error instanceof UsageError ||
    (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
  ) {
    const message = (error as Error).message.replace(/\s*[\r\n]+\s*/g, ' ');
    return { code: 2, stdout: '', stderr: `${command}: ${message}\n` };
  }
  throw error;
}
