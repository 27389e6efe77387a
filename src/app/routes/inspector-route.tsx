import {
  InspectorPage,
  inspectorHeading,
} from '../../features/inspector/components/inspector-page';
import { PageShell } from '../layout/page-shell';
import { batchKinds } from '../kinds/batch-kinds';
import { RoleGate } from '../layout/role-gate';

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
