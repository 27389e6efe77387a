import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { metricPrefix } from './portal-metrics';
import { exportedNames, parseScrape, type Scrape } from './scrape-text';

/*
 * docs/grafana-dashboard.json is built on the portal's metric names: every query of every panel
 * (and of the dashboard's variables) may name only metrics a running portal exports, read from
 * its own scrape, and every family of the portal's own is on some panel. The deployment guide's
 * table of metrics is held to the same scrape.
 */

const token = 'metrics-token-dashboard-4b8d2e';

interface Target {
  expr?: string;
}
interface Panel {
  title?: string;
  type?: string;
  targets?: Target[];
  panels?: Panel[];
}
interface Dashboard {
  panels: Panel[];
  templating?: { list?: { name: string; query?: string | { query?: string } }[] };
}

const dashboard = JSON.parse(
  readFileSync(new URL('../../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
) as Dashboard;

/** Every panel, those inside rows included. */
function allPanels(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])]);
}

/** Words of PromQL that are not metric names. */
const keywords = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges
 * and grouping clauses are taken out, that is not a function (followed by a bracket) or a keyword.
 */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/(?<![\w$.:])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()/g)]
    .map((match) => match[1] ?? '')
    .filter((name) => !keywords.has(name.toLowerCase()));
}

/** A variable's query: `label_values(metric, label)` reads `metric`. */
function variableMetric(query: string): string[] {
  const labelValues = /^label_values\(\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*,/.exec(query.trim());
  return labelValues?.[1] !== undefined ? [labelValues[1]] : metricNamesIn(query);
}

const queries = allPanels(dashboard.panels).flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel: panel.title ?? '?', expr: target.expr ?? '' })),
);
const variables = (dashboard.templating?.list ?? []).flatMap((variable) => {
  const query = typeof variable.query === 'string' ? variable.query : variable.query?.query;
  return variable.name === 'datasource' || query === undefined
    ? []
    : [{ variable: variable.name, query }];
});

let upstream: CaptureUpstream;
let portal: TestPortal;
let scrape: Scrape;

beforeAll(async () => {
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(testConfig(upstream.url, { METRICS_TOKEN: token }));
  const answer = await portal.call('GET', '/metrics', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(answer.status).toBe(200);
  scrape = parseScrape(answer.body.toString('utf8'));
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
});

describe('docs/grafana-dashboard.json', () => {
  it('reads PromQL as this test does', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, route) (rate(a_bucket{route=~"x|y", le!="1"}[$__rate_interval]))) / on (job) group_left b_total offset 5m',
      ),
    ).toEqual(['a_bucket', 'b_total']);
  });

  it('has panels with queries', () => {
    expect(queries.length).toBeGreaterThan(10);
  });

  it.each(queries)('panel "$panel" queries only exported metrics: $expr', ({ expr }) => {
    const names = metricNamesIn(expr);
    expect(names.length).toBeGreaterThan(0);
    const exported = exportedNames(scrape);
    for (const name of names) {
      expect(name.startsWith(metricPrefix), name).toBe(true);
      expect(exported.has(name), `${name} is not in the portal's scrape`).toBe(true);
    }
  });

  it.each(variables)('variable $variable reads an exported metric', ({ query }) => {
    const names = variableMetric(query);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(exportedNames(scrape).has(name), name).toBe(true);
  });

  it("shows every family of the portal's own (Node's process metrics need not all be there)", () => {
    const used = new Set(queries.flatMap(({ expr }) => metricNamesIn(expr)));
    const shown = (family: string) =>
      [family, `${family}_bucket`, `${family}_sum`, `${family}_count`].some((name) =>
        used.has(name),
      );
    const own = [...scrape.types.keys()].filter(
      (family) =>
        family.startsWith(metricPrefix) &&
        !family.startsWith(`${metricPrefix}process_`) &&
        !family.startsWith(`${metricPrefix}nodejs_`),
    );
    expect(own.length).toBeGreaterThan(10);
    expect(own.filter((family) => !shown(family))).toEqual([]);
  });
});

describe('docs/deployment.md, Monitoring', () => {
  const guide = readFileSync(new URL('../../../docs/deployment.md', import.meta.url), 'utf8');
  const monitoring = guide.slice(guide.indexOf('## 13. Monitoring'));

  it("names every family of the portal's own, and none it does not export", () => {
    const named = new Set(
      [...monitoring.matchAll(/`(vms_portal_[a-z0-9_]+)`/g)].map((match) => match[1] ?? ''),
    );
    const own = [...scrape.types.keys()].filter(
      (family) =>
        !family.startsWith(`${metricPrefix}process_`) &&
        !family.startsWith(`${metricPrefix}nodejs_`),
    );
    expect(own.filter((family) => !named.has(family))).toEqual([]);
    const exported = exportedNames(scrape);
    expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  });
});
