import {
  RequisitionList,
  RequisitionListShell,
} from '@/features/requisitions/components/requisition-list';
import { preloadRequisitionList, startRequisitionSync } from '@/shared/requisitions';
import { listRequestAtStart } from '@/shared/requisitions/list-at-start';

// The list's worker starts as this page's code arrives, not after the page's first render: on a
// repeat visit, loading the worker and opening the browser's copy was most of the wait for the
// first row. (A page that starts on this one starts it sooner still: start-list.ts.) With sign-in
// off, the page's first list is asked for now too, and taken in while the page hydrates. Other
// pages that read the list (the form's suggestions) start it later, so their own first paint does
// not share the CPU with it.
startRequisitionSync();
const first = listRequestAtStart();
if (first) {
  preloadRequisitionList(first.request.orgs, first.request.source, first.request.fullReadEvery);
}

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
