import { batchKinds } from '@/app/kinds/batch-kinds';
import { PageShell } from '@/app/layout/page-shell';
import { RoleGate } from '@/app/layout/role-gate';
import { InspectorPage, inspectorHeading } from '@/features/inspector/components/inspector-page';

/** /inspector[?id=…&q=…]: the calls the portal made to the VMS, for QA and admins. */
export default function InspectorRoute() {
  return (
    <RoleGate needs="qa">
      <title>{`${inspectorHeading} · VMS submission portal`}</title>
      <InspectorPage kinds={batchKinds} />
    </RoleGate>
  );
}

export function Shell() {
  return <PageShell heading={inspectorHeading} needs="qa" />;
}
