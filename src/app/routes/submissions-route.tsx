import { Link } from 'react-router';
import { batchKinds } from '@/app/kinds/batch-kinds';
import { PageShell } from '@/app/layout/page-shell';
import { SubmissionsPage, submissionsHeading } from '@/core/batch/components/submissions-page';

export default function SubmissionsRoute() {
  return (
    <>
      <title>{`${submissionsHeading} · VMS submission portal`}</title>
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
    </>
  );
}

export function Shell() {
  return <PageShell heading={submissionsHeading} />;
}
