export type Tone = 'neutral' | 'pending' | 'success' | 'warning' | 'error';

/** A short status word with a colour; the word carries the meaning, the colour only helps. */
export function StatusBadge({ tone, children }: { tone: Tone; children: string }) {
  return <span className={`badge badge--${tone}`}>{children}</span>;
}
