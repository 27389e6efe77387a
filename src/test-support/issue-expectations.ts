/** Test support shared by the wire rule tests: find one field's issue and check its message. */
import { expect } from 'vitest';
import type { FieldIssue } from '@/domain/field-issue';

/** The issue on `field` among `issues`; it must exist, and its message must match every pattern. */
export function expectIssueIn(
  issues: readonly FieldIssue[],
  field: string,
  patterns: ReadonlyArray<RegExp | string> = [],
): FieldIssue {
  const issue = issues.find((candidate) => candidate.field === field);
  expect(issue, `an issue on ${field}; got ${JSON.stringify(issues)}`).toBeDefined();
  for (const pattern of patterns) {
    if (typeof pattern === 'string') expect(issue?.message).toContain(pattern);
    else expect(issue?.message).toMatch(pattern);
  }
  return issue as FieldIssue;
}
