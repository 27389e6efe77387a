import { Link } from 'react-router';
import { batchKinds } from '@/app/kinds/batch-kinds';
import { gatedRoute } from '@/app/layout/gated-route';
import { SubmissionsPage, submissionsHeading } from '@/core/batch/components/submissions-page';

/** /submissions: the batches sent from this browser and their outcomes, for everyone. */
const route = gatedRoute({
  heading: submissionsHeading,
  title: submissionsHeading,
  page: () => (
    <SubmissionsPage
      kinds={batchKinds}
      emptyHint={
        <p>
          Fill in a <Link to="/requisitions/new">new requisition</Link> (or amend one from the{' '}
          <Link to="/requisitions">list</Link>), or a candidate on the{' '}
          <Link to="/candidates">Candidates</Link> page; add it to the batch, then choose “Send
          batch”.
        </p>
      }
    />
  ),
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
