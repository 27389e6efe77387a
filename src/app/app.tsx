import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createElement, lazy, Suspense, useState, type ComponentType } from 'react';
import { BrowserRouter, matchPath, Navigate, Route, Routes } from 'react-router';
import { errorMessage } from '../shared/api/http';
import { portalConfigQueryOptions } from '../shared/config/portal-config';
import { AppShell } from './layout/app-shell';
import { createQueryClient } from './query-client';
import { SessionGate } from './session-gate';
import { homePath, notFoundModule, routeModuleSource, routeTable } from './route-table';

// Route-level code splitting: the first page load carries only the shell; each page, and the
// domain's catalogs and schemas with the forms, load when first visited (or are preloaded by
// index.html for the page it was asked for; see route-table.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page declares its own props
type Page = ComponentType<any>;
const routeModules = import.meta.glob<{ default: Page }>('./routes/*-route.tsx');
const pages = new Map<string, Page>();
function page(module: string): Page {
  let component = pages.get(module);
  if (!component) {
    const load = routeModules[`./${routeModuleSource(module).slice('src/app/'.length)}`];
    if (!load) throw new Error(`route-table.ts names ${module}, which is not in src/app/routes`);
    component = lazy(load);
    pages.set(module, component);
  }
  return component;
}

/**
 * Loads the page asked for before the first render (its chunks are already downloading beside the
 * entry: index.html preloads them), so the first paint shows the page rather than "Loading the
 * page…" and a second render after it. Other pages stay lazy. A failed load is left to the lazy
 * page, which shows the error where the page would be.
 */
export async function loadFirstPage(pathname: string): Promise<void> {
  if (pathname === '/') return; // redirected to homePath
  const module =
    routeTable.find((entry) => matchPath(entry.path, pathname))?.module ?? notFoundModule;
  const load = routeModules[`./${routeModuleSource(module).slice('src/app/'.length)}`];
  try {
    const loaded = await load?.();
    if (loaded) pages.set(module, loaded.default);
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

function ConfiguredApp() {
  const config = useQuery(portalConfigQueryOptions());
  if (config.isPending) {
    return (
      <main className="boot" aria-busy="true">
        <p>Loading the portal settings…</p>
      </main>
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
    <BrowserRouter>
      <Routes>
        {/* An invited user sets a password before anyone is signed in. */}
        <Route
          path="/invite/:token"
          element={
            <Suspense fallback={<p className="page-loading">Loading the page…</p>}>
              <InvitePage />
            </Suspense>
          }
        />
        <Route
          path="*"
          element={
            <SessionGate config={config.data}>
              <AppRoutes />
            </SessionGate>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}

const InvitePage = lazy(() =>
  import('../features/account/components/invite-page').then((module) => ({
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

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfiguredApp />
    </QueryClientProvider>
  );
}
