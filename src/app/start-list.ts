import { listRequestAtStart } from '@/shared/requisitions/list-at-start';
import { listWorker, startRequisitionSync } from '@/shared/requisitions/sync-client';
import { routeAt } from './route-table';

// On the list page, the list's worker is started (and, with sign-in off, asked for the list)
// before the rest of the app's code is run: main.tsx imports this module first. On a first visit
// the VMS's answer for 2,000 requisitions (~6 MB) and its reading in the worker then take place
// while the page's code runs, hydrates and renders, rather than after. Its imports are what every
// page's first load holds anyway, so no other page pays for it.
if (routeAt(location.pathname).worker === listWorker) {
  startRequisitionSync(listRequestAtStart());
}
