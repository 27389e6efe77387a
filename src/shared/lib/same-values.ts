/** Key order-independent JSON, so two form snapshots compare by content. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : inner,
  );
}

export function sameValues(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
