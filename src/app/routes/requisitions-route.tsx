import {
  RequisitionList,
  RequisitionListShell,
} from '@/features/requisitions/components/requisition-list';
import { startRequisitionSync } from '@/shared/requisitions';

// The list's worker starts as this page's code arrives, not after the page's first render: on a
// repeat visit, loading the worker and opening the browser's copy was most of the wait for the
// first row. (A page that starts on this one starts it sooner still: start-list.ts.) Other pages
// that read the list (the form's suggestions) start it later, so their own first paint does not
// share the CPU with it.
startRequisitionSync();

const title = <title>Requisitions · VMS submission portal</title>;

export default function RequisitionsRoute() {
  return (
    <>
      {title}
      <RequisitionList />
    </>
  );
}

export function Shell() {
  return (
    <>
      {title}
      <RequisitionListShell />
    </>
  );
}
