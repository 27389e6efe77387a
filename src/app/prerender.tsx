import type { ReactNode } from 'react';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { PageShell } from '@/domain/page-shell';
import { pageModulesId, pageShellKey, pageShells } from '@/domain/page-shell';
import { App, loadFirstPage } from './app';
import { homePath, invitePath, routeTable } from './route-table';

/** One page as prerendered in one shell: its title (null: the page's own) and #root's content. */
export interface PrerenderedPage {
  title: string | null;
  html: string;
}

/** dist/shells.json: what `npm run build` prerenders (scripts/prerender-shells.ts). */
export interface PrerenderedShells {
  /** For each route pattern (and `/`), the page in each shell, by pageShellKey. */
  routes: { path: string; shells: Record<string, PrerenderedPage> }[];
  /** Any other address. */
  notFound: Record<string, PrerenderedPage>;
  /** Route patterns sent with no shell: the app draws them itself. */
  bare: string[];
}

/**
 * An address for a route pattern: its optional parts left out, a required one (`:id`) given a
 * placeholder. A page whose shell would depend on the value draws none of it (its Shell shows only
 * "Loading the page…"); the server sends that shell for every address the pattern matches.
 */
function addressOf(pattern: string): string {
  const segments = pattern
    .split('/')
    .filter((segment) => !segment.endsWith('?'))
    .map((segment) => (segment.startsWith(':') ? '_' : segment));
  return segments.join('/') || '/';
}

async function html(element: ReactNode): Promise<string> {
  const { prelude } = await prerender(element);
  return new Response(prelude).text();
}

/**
 * The app at `address` in `shell`, as it hydrates: React puts the page's <title> first (it
 * belongs in <head>, where the server puts it); the rest is #root's content.
 */
export async function prerenderPage(address: string, shell: PageShell): Promise<PrerenderedPage> {
  await loadFirstPage(address);
  const router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={address}>{children}</StaticRouter>
  );
  const rendered = await html(
    <StrictMode>
      <App shell={shell} router={router} />
    </StrictMode>,
  );
  const title = /^<title>([^<]*)<\/title>/.exec(rendered);
  const body = title ? rendered.slice(title[0].length) : rendered;
  if (/<title[\s>]/.test(body)) {
    throw new Error(`prerender: ${address} has a <title> React did not put first`);
  }
  return { title: title?.[1] ?? null, html: body };
}

async function allShells(address: string): Promise<Record<string, PrerenderedPage>> {
  const pages: Record<string, PrerenderedPage> = {};
  for (const shell of pageShells) pages[pageShellKey(shell)] = await prerenderPage(address, shell);
  return pages;
}

/** Every route in every shell: the build writes it to dist/shells.json. */
export async function prerenderShells(): Promise<PrerenderedShells> {
  const routes: PrerenderedShells['routes'] = [];
  if (routeTable.some((route) => route.path === homePath)) {
    routes.push({ path: '/', shells: await allShells('/') });
  }
  for (const route of routeTable) {
    routes.push({ path: route.path, shells: await allShells(addressOf(route.path)) });
  }
  return {
    routes,
    // No route has a path that starts with a dash.
    notFound: await allShells('/-'),
    bare: [invitePath],
  };
}

/**
 * The page's one inline script, at the end of its body (allowed by its hash, which the server
 * reads from the page). First, any worker the page links (`<link data-worker="name">`, the list
 * page's sync) is started, told the settings in the page and the stored texts it needs
 * (`data-storage`) in its address's fragment (no server sees it; a message would reach it only
 * when the page's thread is free again, after the app's ~200 ms of module evaluation), so it
 * starts its first work before the app's code has run; the app takes it (window.portalWorkers).
 * Then, once the prerendered page has been drawn: the app's modules are preloaded (`modules`, the
 * entry's, and the page's own, listed in the page by the server) and its entry imported.
 * - A module script runs as soon as the page is parsed, before the browser draws it: the app's
 *   ~150 ms of module evaluation (4× CPU throttle) came before the first paint.
 * - Preloads in the page's head are fetched and compiled (eagerly: the compile hints) while the
 *   page is being drawn, on the same two cores: the form's LCP was 348 ms with them, 276 without
 *   (11 interleaved rounds, the peer page 512), and the app ready as soon either way.
 * An animation frame's callbacks run just before it is drawn, a task queued from one just after.
 * A hidden page draws no frames: it starts at once; a frame that never comes, after a second.
 */
export function startScript(entry: string, modules: readonly string[]): string {
  const startWorkers = `var w=window.portalWorkers={},c=document.getElementById('portal-config');document.querySelectorAll('link[data-worker]').forEach(function(l){try{var k={};(l.dataset.storage||'').split(' ').forEach(function(n){if(n)try{k[n]=localStorage.getItem(n)}catch(e){}});w[l.dataset.worker]=new Worker(l.href+'#'+encodeURIComponent(JSON.stringify({config:c?c.textContent:null,storage:k})),{type:'module',name:l.dataset.worker})}catch(e){}})`;
  const preload = `var m=${JSON.stringify([entry, ...modules])},p=document.getElementById(${JSON.stringify(pageModulesId)});try{if(p)m=m.concat(JSON.parse(p.textContent))}catch(e){}m.forEach(function(u){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;document.head.appendChild(l)})`;
  return `(function(){${startWorkers};var s=0;function go(){if(s)return;s=1;${preload};import(${JSON.stringify(entry)})}if(document.visibilityState==='hidden')go();else{requestAnimationFrame(function(){setTimeout(go,0)});setTimeout(go,1000)}})()`;
}
