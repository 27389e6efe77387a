/** Small timing helpers shared by the benchmarks. */

export interface Timing {
  medianMs: number;
  bestMs: number;
  runs: number;
}

/** Runs `fn` `warmup` times untimed (JIT warm-up), then `runs` times; median and best in ms. */
export function timeRuns(fn: () => void, { warmup = 5, runs = 21 } = {}): Timing {
  for (let i = 0; i < warmup; i += 1) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)] ?? 0, bestMs: samples[0] ?? 0, runs };
}

export function formatTable(rows: Record<string, string | number>[]): string {
  const first = rows[0];
  if (!first) return '';
  const headers = Object.keys(first);
  const cells = [headers, ...rows.map((row) => headers.map((h) => String(row[h] ?? '')))];
  const widths = headers.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? '').length)));
  return cells
    .map((line) => line.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  '))
    .join('\n');
}
