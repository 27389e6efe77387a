import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { errorMessage } from '../shared/api/http';
import { OrgProvider } from '../shared/config/org-context';
import { portalConfigQueryOptions } from '../shared/config/portal-config';
import { AppShell } from './layout/app-shell';
import { createQueryClient } from './query-client';

// Route-level code splitting: the first page load carries only the shell; each page, and the
// domain's catalogs and schemas with the forms, load when first visited.
const RequisitionsRoute = lazy(() => import('./routes/requisitions-route'));
const RequisitionWorkspaceRoute = lazy(() => import('./routes/requisition-workspace-route'));
const CandidatesRoute = lazy(() => import('./routes/candidates-route'));
const SubmissionsRoute = lazy(() => import('./routes/submissions-route'));
const SettingsRoute = lazy(() => import('./routes/settings-route'));
const NotFoundRoute = lazy(() => import('./routes/not-found-route'));

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
    <OrgProvider config={config.data}>
      <BrowserRouter>
        <Routes>
          <Route element={<AppShell />}>
            <Route index element={<Navigate to="/requisitions" replace />} />
            <Route path="requisitions" element={<RequisitionsRoute />} />
            <Route path="requisitions/new" element={<RequisitionWorkspaceRoute mode="insert" />} />
            <Route
              path="requisitions/amend/:reqId?"
              element={<RequisitionWorkspaceRoute mode="amend" />}
            />
            <Route path="candidates" element={<CandidatesRoute />} />
            <Route path="submissions" element={<SubmissionsRoute />} />
            <Route path="settings" element={<SettingsRoute />} />
            <Route path="*" element={<NotFoundRoute />} />
          </Route>
        </Routes>
      </BrowserRouter>
    </OrgProvider>
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
