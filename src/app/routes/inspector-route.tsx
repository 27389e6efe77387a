import { InspectorPage } from '../../features/inspector/components/inspector-page';
import { batchKinds } from '../kinds/batch-kinds';
import { RoleGate } from '../layout/role-gate';

/** /inspector[?id=…&q=…]: the calls the portal made to the VMS, for QA and admins. */
export default function InspectorRoute() {
  return (
    <RoleGate needs="qa">
      <title>Inspector · VMS submission portal</title>
      <InspectorPage kinds={batchKinds} />
    </RoleGate>
  );
}
