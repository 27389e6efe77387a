import {
  RequisitionWorkspacePage,
  RequisitionWorkspaceShell,
} from '@/features/requisitions/components/requisition-workspace';
import type { RequisitionMode } from '@/features/requisitions/model/form-layout';

/** /requisitions/new and /requisitions/amend[/:reqId]: the requisition workspace. */
export default function RequisitionWorkspaceRoute({ mode }: { mode: RequisitionMode }) {
  return <RequisitionWorkspacePage mode={mode} />;
}

export function Shell({ mode }: { mode: RequisitionMode }) {
  return <RequisitionWorkspaceShell mode={mode} />;
}
