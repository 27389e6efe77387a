/**
 * A reader of the Prometheus text format (version 0.0.4) as the portal writes it: its families'
 * types and every sample with its labels. For the tests and the dashboard check, which must read
 * what a scraper reads rather than ask the registry.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** Each family's type, by the family's name (`# TYPE`). */
  types: Map<string, string>;
  samples: Sample[];
}

const samplePattern = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_match, escaped: string) => (escaped === 'n' ? '\n' : escaped));
}

function numberOf(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

export function parseScrape(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type?.[1] !== undefined && type[2] !== undefined) types.set(type[1], type[2]);
      continue;
    }
    const match = samplePattern.exec(line);
    if (!match?.[1] || match[3] === undefined) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(labelPattern)) {
      if (name !== undefined && value !== undefined) labels[name] = unescape(value);
    }
    samples.push({ name: match[1], labels, value: numberOf(match[3]) });
  }
  return { types, samples };
}

/**
 * The names a query may use for the families scraped: each family's own, and for a histogram or a
 * summary the series it is written as (`_bucket`, `_sum`, `_count`).
 */
export function exportedNames(scrape: Scrape): Set<string> {
  const names = new Set<string>();
  for (const [family, type] of scrape.types) {
    names.add(family);
    if (type === 'histogram')
      for (const end of ['_bucket', '_sum', '_count']) names.add(family + end);
    if (type === 'summary') for (const end of ['_sum', '_count']) names.add(family + end);
  }
  for (const sample of scrape.samples) names.add(sample.name);
  return names;
}

/** The value of the sample named `name` with exactly these labels; undefined when there is none. */
export function sampleValue(
  scrape: Scrape,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels);
  const matching = scrape.samples.filter(
    (sample) =>
      sample.name === name &&
      wanted.every(([label, value]) => sample.labels[label] === value) &&
      Object.keys(sample.labels).length === wanted.length,
  );
  return matching[0]?.value;
}
