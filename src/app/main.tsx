import '../shared/lib/zod-config';
import '../styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyDisplaySettings } from '../shared/ui/display-settings';
import { App, loadFirstPage } from './app';

// The chosen theme before anything is drawn, so a dark page never flashes light.
applyDisplaySettings();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const container = root;
void loadFirstPage(location.pathname).then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
