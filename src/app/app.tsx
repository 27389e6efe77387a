import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { createElement, lazy, Suspense, useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import type { PageShell } from '@/domain/page-shell';
import { errorMessage } from '@/shared/api/http';
import { portalConfigQueryOptions } from '@/shared/config/portal-config';
import { PageLoading } from '@/shared/ui/page-loading';
import { AppShell } from './layout/app-shell';
import { ShellPage, useMayTakeOver } from './layout/page-shell';
import { createQueryClient } from './query-client';
import {
  homePath,
  invitePath,
  notFoundModule,
  routeAt,
  routeModuleSource,
  routeTable,
} from './route-table';
import { SessionGate } from './session-gate';

// Route-level code splitting: the first page load carries only the shell; each page, and the
// domain's catalogs and schemas with the forms, load when first visited (or are preloaded by
// index.html for the page it was asked for; see route-table.ts). Each route module's default
// export is its page, its `Shell` what the build prerenders of it (decision 040).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page declares its own props
type Page = ComponentType<any>;
interface RouteModule {
  default: Page;
  Shell: Page;
}
const routeModules = import.meta.glob<RouteModule>('./routes/*-route.tsx');
const loadRoute = (module: string) => {
  const load = routeModules[`./${routeModuleSource(module).slice('src/app/'.length)}`];
  if (!load) throw new Error(`route-table.ts names ${module}, which is not in src/app/routes`);
  return load;
};
const pages = new Map<string, Page>();
const shells = new Map<string, Page>();
function page(module: string): Page {
  let component = pages.get(module);
  if (!component) {
    component = lazy(loadRoute(module));
    pages.set(module, component);
  }
  return component;
}
function shellOf(module: string): Page {
  let component = shells.get(module);
  if (!component) {
    component = lazy(() => loadRoute(module)().then((loaded) => ({ default: loaded.Shell })));
    shells.set(module, component);
  }
  return component;
}

/**
 * Loads the page asked for before the first render (its chunks are already downloading beside the
 * entry: index.html preloads them), so the first render shows the page (or hydrates its shell)
 * rather than "Loading the page…" and a second render after it. Other pages stay lazy. A failed
 * load is left to the lazy page, which shows the error where the page would be.
 */
export async function loadFirstPage(pathname: string): Promise<void> {
  const { module } = routeAt(pathname);
  try {
    const loaded = await loadRoute(module)();
    pages.set(module, loaded.default);
    shells.set(module, loaded.Shell);
  } catch {
    // The lazy page retries and reports it.
  }
}

/**
 * A page's element. The component is looked up when the routes render, so a page that
 * loadFirstPage loaded is used as it is, the others lazily; each is made once (page()).
 */
const pageElement = (module: string, props: Record<string, string> = {}) =>
  createElement(page(module), props);

/**
 * The page the server sent (its prerendered shell), at the address it was sent for. A link
 * followed before the app takes over (which it does as soon as the press has ended) changes the
 * address but not this page: the app draws the new address's page as it takes over, rather than
 * wait here for another shell's code.
 */
function ShellAt({ shell }: { shell: PageShell }) {
  const { pathname } = useLocation();
  const [sentFor] = useState(pathname);
  const { module, props } = routeAt(sentFor);
  return <ShellPage shell={shell} page={shellOf(module)} props={props} />;
}

function ConfiguredApp({ shell }: { shell: PageShell | null }) {
  const takeOver = useMayTakeOver();
  const config = useQuery(portalConfigQueryOptions());
  // The page as the server sent it, until the app can draw its own: while React hydrates it (and
  // a press begun before has not ended), and while what the app needs first is on its way.
  const sent = shell ? <ShellAt shell={shell} /> : null;
  if (sent && !takeOver) return sent;
  if (config.isPending) {
    return (
      sent ?? (
        <main className="boot" aria-busy="true">
          <p>Loading the portal settings…</p>
        </main>
      )
    );
  }
  if (config.isError) {
    return (
      <main className="boot">
        <h1>The portal could not start</h1>
        <div role="alert" className="notice notice--error">
          <p>{errorMessage(config.error)}</p>
        </div>
        <button type="button" className="button" onClick={() => void config.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  return (
    <Routes>
      {/* An invited user sets a password before anyone is signed in. */}
      <Route
        path={invitePath}
        element={
          <Suspense fallback={<PageLoading />}>
            <InvitePage />
          </Suspense>
        }
      />
      <Route
        path="*"
        element={
          <SessionGate
            config={config.data}
            pending={
              shell?.kind === 'app' ? (
                <Suspense fallback={<PageLoading />}>{sent}</Suspense>
              ) : undefined
            }
          >
            <AppRoutes />
          </SessionGate>
        }
      />
    </Routes>
  );
}

const InvitePage = lazy(() =>
  import('@/features/account/components/invite-page').then((module) => ({
    default: module.InvitePage,
  })),
);

function AppRoutes() {
  return (
    <Routes>
      <Route element={<AppShell />}>
        <Route index element={<Navigate to={homePath} replace />} />
        {routeTable.map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={pageElement(route.module, 'props' in route ? route.props : {})}
          />
        ))}
        <Route path="*" element={pageElement(notFoundModule)} />
      </Route>
    </Routes>
  );
}

/**
 * The app. `shell`: the prerendered page the server sent (read from the page; null when it sent
 * none, as the dev server does), which the app draws again as it hydrates. `router`: the
 * browser's, or on the server a static one at the page's address.
 */
export function App({
  shell,
  router: Router,
}: {
  shell: PageShell | null;
  router: ComponentType<{ children: ReactNode }>;
}) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Router>
        <ConfiguredApp shell={shell} />
      </Router>
    </QueryClientProvider>
  );
}
