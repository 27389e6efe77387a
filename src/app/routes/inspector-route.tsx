import { batchKinds } from '@/app/kinds/batch-kinds';
import { gatedRoute } from '@/app/layout/gated-route';
import { InspectorPage, inspectorHeading } from '@/features/inspector/components/inspector-page';

/** /inspector[?id=…&q=…]: the calls the portal made to the VMS, for QA and admins. */
const route = gatedRoute({
  needs: 'qa',
  heading: inspectorHeading,
  title: inspectorHeading,
  page: () => <InspectorPage kinds={batchKinds} />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
