/** The types of boundaries.mjs, for the tests that read it. */
export function foldersOf(area: string): string[];
export const serverConcerns: Record<string, string[]>;
export const sharedServerFiles: string[];
export function serverConcernProblems(
  folders?: string[],
  concerns?: Record<string, string[]>,
): string[];
