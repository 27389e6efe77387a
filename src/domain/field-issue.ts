/** One problem with one field. `field` is the wire key (e.g. `titlerole`, `skilldescription3`). */
export interface FieldIssue {
  field: string;
  message: string;
}

/** Collects issues for one item, at most one per field (the first found is the most basic). */
export class IssueList {
  readonly issues: FieldIssue[] = [];
  private readonly seen = new Set<string>();

  add(field: string, message: string): void {
    if (this.seen.has(field)) return;
    this.seen.add(field);
    this.issues.push({ field, message });
  }

  has(field: string): boolean {
    return this.seen.has(field);
  }
}
