/** A problem with the command or its files: one line on stderr, exit 2. */
export class UsageError extends Error {}
