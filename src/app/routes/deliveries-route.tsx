import { gatedRoute } from '@/app/layout/gated-route';
import {
  DeliveriesPage,
  deliveriesHeading,
} from '@/features/deliveries/components/deliveries-page';

/** /webhooks: the webhooks notifications go to, and the delivery log, for admins. */
const route = gatedRoute({
  needs: 'admin',
  heading: deliveriesHeading,
  title: deliveriesHeading,
  page: () => <DeliveriesPage />,
});

export default route.Page;
/** The page before the app runs: its heading. */
export const Shell = route.Shell;
