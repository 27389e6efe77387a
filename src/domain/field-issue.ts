/** One problem with one field. `field` is the wire key (e.g. `titlerole`, `skilldescription3`). */
export interface FieldIssue {
  field: string;
  message: string;
}

/** Collects issues for one item, at most one per field (the first found is the most basic). */
export class IssueList {
  readonly issues: FieldIssue[] = [];

  add(field: string, message: string): void {
    // Items have few issues: a scan is cheaper than a Set allocated for every valid item.
    if (this.has(field)) return;
    this.issues.push({ field, message });
  }

  has(field: string): boolean {
    return this.issues.some((issue) => issue.field === field);
  }
}

/** A form path `skills.2.description` → ['skills', 2, 'description'] for zod issue paths. */
export function toPath(dotted: string): (string | number)[] {
  return dotted.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** Where a form's check reports an issue: zod's refinement context, as `superRefine` passes it. */
interface IssueSink {
  addIssue(issue: { code: 'custom'; path: (string | number)[]; message: string }): void;
}

/**
 * A wire check's issues on the form they came from: each at the form path `formPath` gives for its
 * wire key, so the form shows it beside the field the user typed.
 */
export function addFormIssues(
  ctx: IssueSink,
  issues: readonly FieldIssue[],
  formPath: (field: string) => string,
): void {
  for (const issue of issues) {
    ctx.addIssue({ code: 'custom', path: toPath(formPath(issue.field)), message: issue.message });
  }
}
