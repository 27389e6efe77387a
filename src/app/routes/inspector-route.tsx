import { InspectorPage } from '../../features/inspector/components/inspector-page';
import { batchKinds } from '../kinds/batch-kinds';

/** /inspector[?id=…&q=…]: the calls the portal made to the VMS (issue 14). */
export default function InspectorRoute() {
  return (
    <>
      <title>Inspector · VMS submission portal</title>
      <InspectorPage kinds={batchKinds} />
    </>
  );
}
