import {
  CandidateWorkspacePage,
  CandidateWorkspaceShell,
} from '@/features/candidates/components/candidate-workspace';

/** /candidates[?reqId=…]: the candidate workspace. */
export default function CandidatesRoute() {
  return <CandidateWorkspacePage />;
}

export const Shell = CandidateWorkspaceShell;
