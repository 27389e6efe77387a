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
