import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { escapeRegExp } from '../../domain/reg-exp';

const chunksSchema = z.object({ scripts: z.array(z.string()), styles: z.array(z.string()) });
const routePreloadsSchema = z.object({
  routes: z.array(chunksSchema.extend({ path: z.string() })),
  notFound: chunksSchema,
});
/** dist/route-preloads.json, written by scripts/route-preloads.ts after `vite build`. */
export type RoutePreloads = z.infer<typeof routePreloadsSchema>;
type Chunks = z.infer<typeof chunksSchema>;

/** A React Router path pattern (`/requisitions/amend/:reqId?`) as a regular expression. */
export function patternToRegExp(pattern: string): RegExp {
  const segments = pattern
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${escapeRegExp(segment)}`;
    });
  return new RegExp(`^${segments.join('') || '/'}/?$`, 'i');
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** JSON that is safe inside a `<script>` element: no `</script>`, no `<!--`. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * index.html for each URL: the built page with, before `</head>`, the portal's settings (the body
 * of `GET /api/config`, so the app needs no round trip before it can render) and preload links for
 * the page's own chunks (so they download beside the entry, not after it has run). Made once at
 * start; a build without dist/route-preloads.json gets the settings only.
 */
export function indexPages(distDir: string, configBody: unknown): (path: string) => string {
  const template = readFileSync(join(distDir, 'index.html'), 'utf8');
  let preloads: RoutePreloads | null = null;
  try {
    preloads = routePreloadsSchema.parse(
      JSON.parse(readFileSync(join(distDir, 'route-preloads.json'), 'utf8')),
    );
  } catch {
    preloads = null;
  }
  const settings = `<script type="application/json" id="portal-config">${scriptSafeJson(configBody)}</script>`;
  const render = (chunks: Chunks | null) => {
    const links = [
      ...(chunks?.styles ?? []).map(
        (file) => `<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`,
      ),
      ...(chunks?.scripts ?? []).map(
        (file) => `<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`,
      ),
    ];
    const head = `${[settings, ...links].join('\n')}\n`;
    return template.includes('</head>')
      ? template.replace('</head>', `${head}</head>`)
      : `${template}${head}`;
  };
  const pages = (preloads?.routes ?? []).map((route) => ({
    pattern: patternToRegExp(route.path),
    html: render(route),
  }));
  const notFound = render(preloads?.notFound ?? null);
  return (path) => pages.find((page) => page.pattern.test(path))?.html ?? notFound;
}
