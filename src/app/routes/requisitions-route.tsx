import { RequisitionList } from '../../features/requisitions/components/requisition-list';

export default function RequisitionsRoute() {
  return (
    <>
      <title>Requisitions · VMS submission portal</title>
      <RequisitionList />
    </>
  );
}
