/**
 * An answer's headers as the stores keep them, a JSON object in a text column (the idempotency
 * keys' kept answers, the journal's answers): read back as name → value, anything that is not a
 * string value left out. Null or empty: no headers.
 */
export function parseHeaders(text: string | null): Record<string, string> {
  if (!text) return {};
  const parsed: unknown = JSON.parse(text);
  const headers: Record<string, string> = {};
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [name, value] of Object.entries(parsed)) {
      if (typeof value === 'string') headers[name] = value;
    }
  }
  return headers;
}
