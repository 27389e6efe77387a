import { matchPath } from 'react-router';
import { listWorker } from '@/shared/requisitions/sync-client';

/**
 * The app's pages, once: the router (app.tsx) renders them, and the build (scripts/route-preloads.ts)
 * reads them to tell the server which chunks each URL needs, so index.html can preload a page's
 * code together with the entry instead of after it. `module` names a file in ./routes (its default
 * export is the page); `props` are passed to it.
 */
export const routeTable = [
  { path: '/requisitions', module: 'requisitions-route', worker: listWorker },
  { path: '/requisitions/new', module: 'requisition-workspace-route', props: { mode: 'insert' } },
  { path: '/requisitions/import', module: 'import-route', props: { kind: 'requisition' } },
  {
    path: '/requisitions/amend/:reqId?',
    module: 'requisition-workspace-route',
    props: { mode: 'amend' },
  },
  { path: '/candidates', module: 'candidates-route' },
  { path: '/candidates/import', module: 'import-route', props: { kind: 'candidate' } },
  { path: '/submissions', module: 'submissions-route' },
  { path: '/inspector', module: 'inspector-route' },
  { path: '/suites', module: 'suites-route' },
  { path: '/suites/:id', module: 'suite-route' },
  { path: '/suites/:id/runs/:runId', module: 'suite-run-route' },
  // Any run by its id alone: a suite file's run has no stored suite to be under.
  { path: '/suites/runs/:runId', module: 'suite-run-route' },
  { path: '/users', module: 'users-route' },
  { path: '/account', module: 'account-route' },
  { path: '/audit', module: 'audit-route' },
  { path: '/privacy', module: 'privacy-route' },
  { path: '/webhooks', module: 'deliveries-route' },
  { path: '/connections', module: 'connections-route' },
  { path: '/settings', module: 'settings-route' },
] as const satisfies readonly RouteEntry[];

export interface RouteEntry {
  /** A React Router path pattern. */
  path: string;
  module: string;
  props?: Record<string, string>;
  /**
   * A Web Worker the page uses at once (its name and source file): the page links it, and its
   * start script starts it as the page is first drawn, before the app's code has run.
   */
  worker?: { name: string; source: string; storage: readonly string[] };
}

/** Where `/` goes. */
export const homePath = '/requisitions';
/** Any other path. */
export const notFoundModule = 'not-found-route';

/** The source file of a route module, as Vite's manifest names it. */
export const routeModuleSource = (module: string) => `src/app/routes/${module}.tsx`;

/** An invited user's page, before anyone is signed in: no app frame, and no prerendered shell. */
export const invitePath = '/invite/:token';

/**
 * The page at `pathname`: its route module and props (`/` is the home page's, which it redirects
 * to). The app's first load, its prerendered shells and the build's preload links all find the
 * page this way.
 */
export function routeAt(pathname: string): {
  module: string;
  props: Record<string, string>;
  worker: RouteEntry['worker'] | null;
} {
  const entry: RouteEntry | undefined =
    pathname === '/'
      ? routeTable.find((route) => route.path === homePath)
      : routeTable.find((route) => matchPath(route.path, pathname));
  if (!entry) return { module: notFoundModule, props: {}, worker: null };
  return { module: entry.module, props: entry.props ?? {}, worker: entry.worker ?? null };
}
