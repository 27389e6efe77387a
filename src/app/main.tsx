import '@/shared/lib/zod-config';
import './start-list';
import '@/styles/app.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { pageShellAttribute, pageShellOf } from '@/domain/page-shell';
import { applyDisplaySettings } from '@/shared/ui/display-settings';
import { App, loadFirstPage } from './app';

// The chosen theme (the page's inline script set it before the first paint) kept in step with
// Settings, in this tab and others.
applyDisplaySettings();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container = root;
// The prerendered page the server sent, if any (decision 040): the app hydrates it, drawing the
// same shell first and its own page right after. Without one (the dev server), it draws the page.
const shell = pageShellOf(container.getAttribute(pageShellAttribute));
void loadFirstPage(location.pathname).then(() => {
  const app = (
    <StrictMode>
      <App shell={shell} router={BrowserRouter} />
    </StrictMode>
  );
  if (shell) hydrateRoot(container, app);
  else createRoot(container).render(app);
});
