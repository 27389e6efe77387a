import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { DisplaySettings } from '@/domain/display';
import { displayAttributes } from '@/domain/display';
import type { PageShell } from '@/domain/page-shell';
import { pageModulesId, pageShellAttribute, pageShellKey } from '@/domain/page-shell';
import { escapeRegExp } from '@/domain/reg-exp';

const chunksSchema = z.object({
  scripts: z.array(z.string()),
  styles: z.array(z.string()),
  /**
   * Workers the page starts as it is first drawn (the page's start script): by name, with the
   * localStorage keys whose texts it tells them.
   */
  workers: z
    .array(
      z.object({ name: z.string(), file: z.string(), storage: z.array(z.string()).default([]) }),
    )
    .default([]),
});
const routePreloadsSchema = z.object({
  routes: z.array(chunksSchema.extend({ path: z.string() })),
  notFound: chunksSchema,
});
/** dist/route-preloads.json, written by scripts/route-preloads.ts after `vite build`. */
export type RoutePreloads = z.infer<typeof routePreloadsSchema>;
type Chunks = z.infer<typeof chunksSchema>;

const prerenderedPageSchema = z.object({ title: z.string().nullable(), html: z.string() });
type PrerenderedPage = z.infer<typeof prerenderedPageSchema>;
const pagesByShellSchema = z.record(z.string(), prerenderedPageSchema);
/** dist/shells.json, written by scripts/prerender-shells.ts (src/app/prerender.tsx). */
const shellsSchema = z.object({
  routes: z.array(z.object({ path: z.string(), shells: pagesByShellSchema })),
  notFound: pagesByShellSchema,
  bare: z.array(z.string()),
});
type Shells = z.infer<typeof shellsSchema>;

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

function readJson<T>(path: string, schema: z.ZodType<T>): T | null {
  try {
    return schema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return null;
  }
}

/** What `npm run build` left in dist/ for the pages: read once, at start. */
export interface BuiltPages {
  template: string;
  preloads: RoutePreloads | null;
  shells: Shells | null;
  /** CSP sources allowing the page's inline scripts (`'sha256-…'`), read from the page itself. */
  scriptSources: string[];
}

/** The hashes of a page's inline scripts, those the browser runs (not JSON data blocks). */
function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) =>
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
  );
}

/**
 * dist/index.html with what the build wrote beside it: the preload links of each page
 * (route-preloads.json) and its prerendered shells (shells.json, decision 040).
 * A build without either still serves: pages without preloads, or without shells (the app then
 * draws each page itself, as before). Null without a build.
 */
export function readBuiltPages(distDir: string): BuiltPages | null {
  if (!existsSync(join(distDir, 'index.html'))) return null;
  const template = readFileSync(join(distDir, 'index.html'), 'utf8');
  const shells = readJson(join(distDir, 'shells.json'), shellsSchema);
  return {
    template,
    preloads: readJson(join(distDir, 'route-preloads.json'), routePreloadsSchema),
    shells,
    scriptSources: inlineScriptSources(template),
  };
}

/**
 * index.html for each URL, shell and display: the built page with <html>'s display attributes
 * (the cookie the app keeps), in `<head>` the portal's settings (the body of
 * `GET /api/config`, so the app needs no round trip before it can render) and preload links for
 * the page's own chunks (so they download beside the entry, not after it has run); the page's
 * title; and in #root the page as prerendered in the shell asked for, named by its attribute so
 * the app hydrates that one. Made once at start.
 */
export function indexPages(
  built: BuiltPages,
  configBody: unknown,
): (path: string, shell: PageShell | null, display: DisplaySettings) => string {
  const { template, preloads, shells } = built;
  const settings = `<script type="application/json" id="portal-config">${scriptSafeJson(configBody)}</script>`;
  const render = (chunks: Chunks | null, shell: PageShell | null, page: PrerenderedPage | null) => {
    const links = [
      ...(chunks?.styles ?? []).map(
        (file) => `<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`,
      ),
      // The page's own modules, which the start script preloads once the page has been drawn.
      ...(chunks && chunks.scripts.length > 0
        ? [
            `<script type="application/json" id="${pageModulesId}">${scriptSafeJson(chunks.scripts.map((file) => `/${file}`))}</script>`,
          ]
        : []),
      ...(chunks?.workers ?? []).map(
        ({ name, file, storage }) =>
          `<link rel="prefetch" href="/${escapeAttribute(file)}" data-worker="${escapeAttribute(name)}" data-storage="${escapeAttribute(storage.join(' '))}">`,
      ),
    ];
    const head = `${[settings, ...links].join('\n')}\n`;
    let html = template.includes('</head>')
      ? template.replace('</head>', `${head}</head>`)
      : `${template}${head}`;
    if (page && shell) {
      if (page.title !== null) {
        html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${page.title}</title>`);
      }
      html = html.replace(
        '<div id="root"></div>',
        () => `<div id="root" ${pageShellAttribute}="${pageShellKey(shell)}">${page.html}</div>`,
      );
    }
    return html;
  };

  /** A page per shell, made when first asked for. */
  const pagesOf = (chunks: Chunks | null, shellPages: Record<string, PrerenderedPage> | null) => {
    const made = new Map<string, string>();
    return (shell: PageShell | null) => {
      const page = shell ? (shellPages?.[pageShellKey(shell)] ?? null) : null;
      const key = page && shell ? pageShellKey(shell) : '';
      let html = made.get(key);
      if (html === undefined) {
        html = render(chunks, page ? shell : null, page);
        made.set(key, html);
      }
      return html;
    };
  };

  const shellsAt = (path: string) =>
    shells?.routes.find((route) => route.path === path)?.shells ?? null;
  const routes = [
    ...(shells?.bare ?? []).map((path) => ({
      pattern: patternToRegExp(path),
      page: pagesOf(null, null),
    })),
    ...(preloads?.routes ?? []).map((route) => ({
      pattern: patternToRegExp(route.path),
      page: pagesOf(route, shellsAt(route.path)),
    })),
  ];
  const notFound = pagesOf(preloads?.notFound ?? null, shells?.notFound ?? null);
  return (path, shell, display) =>
    withDisplay(
      (routes.find((route) => route.pattern.test(path))?.page ?? notFound)(shell),
      display,
    );
}

/** The page with <html>'s display attributes (theme, wire names) as the app would set them. */
function withDisplay(html: string, display: DisplaySettings): string {
  const attributes = Object.entries(displayAttributes(display))
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  return attributes === '' ? html : html.replace(/<html\b/i, (tag) => `${tag}${attributes}`);
}
